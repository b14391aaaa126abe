// The 2.x transport + McpServer with the 2.x repository's example InMemoryEventStore (written anew in
// targets/sdk2/repository-event-store.ts), one per session, routed as the repository's examples route. The
// repository's own sessionful examples share one store (sdk2-shared); one per session keeps the store's ordering
// apart from its sharing, as sdk does for the 1.x example.

import { createSdkTarget } from '../sdk/index.ts';
import type { SdkEventStores } from '../sdk/index.ts';
import type { Target } from '../target.ts';
import { SDK2_TARGET_INFOS } from './infos.ts';
import { REPOSITORY_ROUTER } from './example-routing.ts';
import { RepositoryExampleEventStore } from './repository-event-store.ts';
import { SDK_2_LINE } from './sdk2-line.ts';

/** The stores of one incarnation: a new 2.x repository example store for each session. */
export function repositoryStoresPerSession(): SdkEventStores {
  return {
    forSession: () => new RepositoryExampleEventStore(),
    // The store goes with its transport; nothing else refers to it.
    endSession: () => {},
  };
}

/** The 2.x transport with one 2.x repository example store per session. */
export const sdk2ExampleTarget: Target = createSdkTarget({
  name: SDK2_TARGET_INFOS.sdk2Example.name,
  description: SDK2_TARGET_INFOS.sdk2Example.description,
  components: SDK2_TARGET_INFOS.sdk2Example.components,
  line: SDK_2_LINE,
  routing: REPOSITORY_ROUTER,
  createStores: repositoryStoresPerSession,
});
