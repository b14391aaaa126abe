// What the SDK targets say about themselves, apart from the targets: listing them (`resumecheck targets`, the CLI's
// registry) must not load the SDK, zod and the transport, which only a run of one of them needs.

import type { TargetInfo } from '../target.ts';
import { ROUTERS, SDK1_PACKAGE_NAME, STORES, sdkComponents } from './components.ts';

/** The name, kind, description and components of each SDK target; the targets are built from these. */
export const SDK_TARGET_INFOS = {
  sdk: {
    name: 'sdk',
    kind: 'sdk',
    description: 'MCP TypeScript SDK 1.32 transport + McpServer, one example InMemoryEventStore per session (simpleStreamableHttp)',
    breaks: [],
    components: sdkComponents(SDK1_PACKAGE_NAME, STORES.example1PerSession, ROUTERS.example1),
  },
  sdkShared: {
    name: 'sdk-shared',
    kind: 'sdk',
    description: 'MCP TypeScript SDK 1.32 transport + McpServer, one example InMemoryEventStore shared by all sessions (ssePollingExample)',
    breaks: [],
    components: sdkComponents(SDK1_PACKAGE_NAME, STORES.example1Shared, ROUTERS.example1),
  },
  sdkCore: {
    name: 'sdk-core',
    kind: 'sdk',
    description: 'MCP TypeScript SDK 1.32 transport + McpServer with resumecheck/event-store (the decision core), one backend per incarnation',
    breaks: [],
    components: sdkComponents(SDK1_PACKAGE_NAME, STORES.core, ROUTERS.example1),
  },
} as const satisfies Record<string, TargetInfo>;
