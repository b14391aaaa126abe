// The 2.x transport + McpServer with the 1.x example InMemoryEventStore, one per session: 2.x ships no store, so
// users copy the 1.x example's into their servers (simpleStreamableHttp's wiring).

import { exampleStoresPerSession } from '../sdk/sdk.target.ts';
import { createSdkTarget } from '../sdk/index.ts';
import type { Target } from '../target.ts';
import { SDK2_TARGET_INFOS } from './infos.ts';
import { EXAMPLE_ROUTER } from './example-routing.ts';
import { SDK_2_LINE } from './sdk2-line.ts';

/** The 2.x transport with one copied example `InMemoryEventStore` per session. */
export const sdk2ExampleTarget: Target = createSdkTarget({
  name: SDK2_TARGET_INFOS.sdk2Example.name,
  description: SDK2_TARGET_INFOS.sdk2Example.description,
  line: SDK_2_LINE,
  routing: EXAMPLE_ROUTER,
  createStores: exampleStoresPerSession,
});
