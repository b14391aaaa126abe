// The 2.x transport + McpServer with resumecheck/event-store, routed as the 2.x repository's examples route today.

import { coreStores } from '../sdk/sdk-core.target.ts';
import { createSdkTarget } from '../sdk/index.ts';
import type { Target } from '../target.ts';
import { SDK2_TARGET_INFOS } from './infos.ts';
import { REPOSITORY_ROUTER } from './example-routing.ts';
import { SDK_2_LINE } from './sdk2-line.ts';

/** The 2.x transport with `resumecheck/event-store`, scoped per session, windowed by `windowEventsMax`. */
export const sdk2CoreTarget: Target = createSdkTarget({
  name: SDK2_TARGET_INFOS.sdk2Core.name,
  description: SDK2_TARGET_INFOS.sdk2Core.description,
  components: SDK2_TARGET_INFOS.sdk2Core.components,
  line: SDK_2_LINE,
  routing: REPOSITORY_ROUTER,
  createStores: coreStores,
});
