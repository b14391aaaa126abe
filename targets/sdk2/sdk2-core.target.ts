// The 2.x transport + McpServer with resumecheck/event-store, routed as the 2.x simpleStreamableHttp example does.

import { coreStores } from '../sdk/sdk-core.target.ts';
import { createSdkTarget } from '../sdk/index.ts';
import type { Target } from '../target.ts';
import { SDK2_TARGET_INFOS } from './infos.ts';
import { EXAMPLE_ROUTER } from './example-routing.ts';
import { SDK_2_LINE } from './sdk2-line.ts';

/** The 2.x transport with `resumecheck/event-store`, scoped per session, windowed by `windowEventsMax`. */
export const sdk2CoreTarget: Target = createSdkTarget({
  name: SDK2_TARGET_INFOS.sdk2Core.name,
  description: SDK2_TARGET_INFOS.sdk2Core.description,
  line: SDK_2_LINE,
  routing: EXAMPLE_ROUTER,
  createStores: coreStores,
});
