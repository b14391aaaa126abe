// The dual-era wiring without an answer of the application's own: a legacy request the session map cannot place goes
// to a new transport (as the 2.x ssePollingExample routes), so what a bare 2.x transport answers shows.

import { coreStores } from '../sdk/sdk-core.target.ts';
import { createSdkTarget } from '../sdk/index.ts';
import type { Target } from '../target.ts';
import { DUAL_TRANSPORT_ANSWERS } from './example-routing.ts';
import { SDK_2_LINE } from './sdk2-line.ts';

/** sdk2-dual's wiring where the transports answer unknown and missing session IDs themselves. */
export const sdk2DualBareTarget: Target = createSdkTarget({
  name: 'sdk2-dual-bare',
  description: 'MCP TypeScript SDK 2.4 dual-era endpoint as sdk2-dual, but a legacy request for an unknown session goes to a new transport, which answers',
  line: SDK_2_LINE,
  routing: DUAL_TRANSPORT_ANSWERS,
  createStores: coreStores,
});
