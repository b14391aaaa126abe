// The dual-era wiring the 2.x documentation gives: `isLegacyRequest` sends 2025-era traffic to a sessionful
// transport with an event store (here resumecheck/event-store, routed as the 2.x repository's examples route), and everything else
// to `createMcpHandler(factory, { legacy: 'reject' })`.

import { coreStores } from '../sdk/sdk-core.target.ts';
import { createSdkTarget } from '../sdk/index.ts';
import type { Target } from '../target.ts';
import { SDK2_TARGET_INFOS } from './infos.ts';
import { DUAL_REPOSITORY_ROUTER } from './example-routing.ts';
import { SDK_2_LINE } from './sdk2-line.ts';

/** The 2.x dual-era endpoint: legacy sessions with `resumecheck/event-store`, modern requests to `createMcpHandler`. */
export const sdk2DualTarget: Target = createSdkTarget({
  name: SDK2_TARGET_INFOS.sdk2Dual.name,
  description: SDK2_TARGET_INFOS.sdk2Dual.description,
  components: SDK2_TARGET_INFOS.sdk2Dual.components,
  eras: SDK2_TARGET_INFOS.sdk2Dual.eras,
  line: SDK_2_LINE,
  routing: DUAL_REPOSITORY_ROUTER,
  createStores: coreStores,
});
