// The dual-era wiring without an answer of the application's own: a legacy request the session map cannot place goes
// to a new transport, so what a bare 2.x transport answers shows (no example of the 2.x repository routes so today).

import { coreStores } from '../sdk/sdk-core.target.ts';
import { createSdkTarget } from '../sdk/index.ts';
import type { Target } from '../target.ts';
import { SDK2_TARGET_INFOS } from './infos.ts';
import { DUAL_TRANSPORT_ANSWERS } from './example-routing.ts';
import { SDK_2_LINE } from './sdk2-line.ts';

/** sdk2-dual's wiring where the transports answer unknown and missing session IDs themselves. */
export const sdk2DualBareTarget: Target = createSdkTarget({
  name: SDK2_TARGET_INFOS.sdk2DualBare.name,
  description: SDK2_TARGET_INFOS.sdk2DualBare.description,
  components: SDK2_TARGET_INFOS.sdk2DualBare.components,
  eras: SDK2_TARGET_INFOS.sdk2DualBare.eras,
  line: SDK_2_LINE,
  routing: DUAL_TRANSPORT_ANSWERS,
  createStores: coreStores,
});
