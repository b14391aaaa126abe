// The SDK's transport with one example InMemoryEventStore shared by every session of an incarnation, as in the
// SDK's ssePollingExample server. The store has no notion of sessions.

import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import type { Target } from '../target.ts';
import { SDK_TARGET_INFOS } from './infos.ts';
import { type SdkEventStores, createSdkTarget } from './sdk-server.ts';

/** The stores of one incarnation: one example `InMemoryEventStore` for every session (any SDK line). */
export function sharedExampleStores(): SdkEventStores {
  const store = new InMemoryEventStore();
  return {
    forSession: () => store,
    // The shared store cannot forget a session: its events stay, replayable by any cursor that names them.
    endSession: () => {},
  };
}

/** The SDK transport with one example `InMemoryEventStore` shared by all sessions of an incarnation. */
export const sdkSharedTarget: Target = createSdkTarget({
  name: SDK_TARGET_INFOS.sdkShared.name,
  description: SDK_TARGET_INFOS.sdkShared.description,
  components: SDK_TARGET_INFOS.sdkShared.components,
  createStores: sharedExampleStores,
});
