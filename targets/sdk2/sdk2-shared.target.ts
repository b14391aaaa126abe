// The 2.x transport + McpServer with one copied example InMemoryEventStore shared by every session, routed as the 2.x
// ssePollingExample does: a request for a session the map does not hold goes to a new transport.

import { sharedExampleStores } from '../sdk/sdk-shared.target.ts';
import { createSdkTarget } from '../sdk/index.ts';
import type { Target } from '../target.ts';
import { SDK2_TARGET_INFOS } from './infos.ts';
import { TRANSPORT_ANSWERS } from './example-routing.ts';
import { SDK_2_LINE } from './sdk2-line.ts';

/** The 2.x transport with one example `InMemoryEventStore` for all sessions (ssePollingExample). */
export const sdk2SharedTarget: Target = createSdkTarget({
  name: SDK2_TARGET_INFOS.sdk2Shared.name,
  description: SDK2_TARGET_INFOS.sdk2Shared.description,
  line: SDK_2_LINE,
  routing: TRANSPORT_ANSWERS,
  createStores: sharedExampleStores,
});
