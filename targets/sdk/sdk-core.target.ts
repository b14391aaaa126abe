// The SDK's transport with resumecheck's own event store (the decision core): one backend per incarnation with a
// deterministic epoch token, one session-scoped store per session.

import { createEventStoreBackend } from '../../event-store/index.ts';
import type { Incarnation, Target, TargetOptions } from '../target.ts';
import { SDK_TARGET_INFOS } from './infos.ts';
import { type SdkEventStores, createSdkTarget } from './sdk-server.ts';

/** The stores of one incarnation: `resumecheck/event-store`, one backend, scoped per session (any SDK line). */
export function coreStores(incarnation: Incarnation, options: TargetOptions): SdkEventStores {
  const backend = createEventStoreBackend({ epoch: `e${incarnation.epoch}`, windowEventsMax: options.windowEventsMax });
  return {
    forSession: (sessionId) => backend.forSession(sessionId),
    endSession: (sessionId, how) => backend.endSession(sessionId, how),
  };
}

/** The SDK transport with `resumecheck/event-store`, scoped per session, windowed by `windowEventsMax`. */
export const sdkCoreTarget: Target = createSdkTarget({
  name: SDK_TARGET_INFOS.sdkCore.name,
  description: SDK_TARGET_INFOS.sdkCore.description,
  components: SDK_TARGET_INFOS.sdkCore.components,
  createStores: coreStores,
});
