// The 2.x transport + McpServer with the 1.x example InMemoryEventStore, one per session: 2.x ships no store, so
// users copy the 1.x example's into their servers (simpleStreamableHttp's wiring).

import { exampleStoresPerSession } from '../sdk/sdk.target.ts';
import { createSdkTarget } from '../sdk/index.ts';
import type { Target } from '../target.ts';
import { EXAMPLE_ROUTER } from './example-routing.ts';
import { SDK_2_LINE } from './sdk2-line.ts';

/** The 2.x transport with one copied example `InMemoryEventStore` per session. */
export const sdk2ExampleTarget: Target = createSdkTarget({
  name: 'sdk2-example',
  description: 'MCP TypeScript SDK 2.4 transport + McpServer, the 1.x example InMemoryEventStore per session (simpleStreamableHttp)',
  line: SDK_2_LINE,
  routing: EXAMPLE_ROUTER,
  createStores: exampleStoresPerSession,
});
