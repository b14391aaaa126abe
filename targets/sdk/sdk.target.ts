// The SDK's transport with its example InMemoryEventStore, one store per session, as in the SDK's
// simpleStreamableHttp example server.

import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import type { Target } from '../target.ts';
import { SDK_TARGET_INFOS } from './infos.ts';
import { type SdkEventStores, createSdkTarget } from './sdk-server.ts';

/** The stores of one incarnation: a new example `InMemoryEventStore` for each session (any SDK line). */
export function exampleStoresPerSession(): SdkEventStores {
  return {
    forSession: () => new InMemoryEventStore(),
    // The store goes with its transport; nothing else refers to it.
    endSession: () => {},
  };
}

/** The SDK transport with one example `InMemoryEventStore` per session. */
export const sdkTarget: Target = createSdkTarget({
  name: SDK_TARGET_INFOS.sdk.name,
  description: SDK_TARGET_INFOS.sdk.description,
  components: SDK_TARGET_INFOS.sdk.components,
  createStores: exampleStoresPerSession,
});
