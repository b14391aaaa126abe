// The 2.x transport + McpServer with one 2.x repository example InMemoryEventStore (written anew in
// targets/sdk2/repository-event-store.ts) shared by every session of an incarnation, as the repository's sessionful
// examples wire it (examples/sse-polling/server.ts, examples/repl/server.ts: one `new InMemoryEventStore()` at module
// level), routed as they route.

import { createSdkTarget } from '../sdk/index.ts';
import type { SdkEventStores } from '../sdk/index.ts';
import type { Target } from '../target.ts';
import { SDK2_TARGET_INFOS } from './infos.ts';
import { REPOSITORY_ROUTER } from './example-routing.ts';
import { RepositoryExampleEventStore } from './repository-event-store.ts';
import { SDK_2_LINE } from './sdk2-line.ts';

/** The stores of one incarnation: one 2.x repository example store for every session. */
export function repositorySharedStores(): SdkEventStores {
  const store = new RepositoryExampleEventStore();
  return {
    forSession: () => store,
    // The shared store cannot forget a session: its events stay, replayable by any cursor that names them.
    endSession: () => {},
  };
}

/** The 2.x transport with one 2.x repository example store for all sessions. */
export const sdk2SharedTarget: Target = createSdkTarget({
  name: SDK2_TARGET_INFOS.sdk2Shared.name,
  description: SDK2_TARGET_INFOS.sdk2Shared.description,
  components: SDK2_TARGET_INFOS.sdk2Shared.components,
  line: SDK_2_LINE,
  routing: REPOSITORY_ROUTER,
  createStores: repositorySharedStores,
});
