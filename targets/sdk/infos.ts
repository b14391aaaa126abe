// What the SDK targets say about themselves, apart from the targets: listing them (`resumecheck targets`, the CLI's
// registry) must not load the SDK, zod and the transport, which only a run of one of them needs.

import type { TargetInfo } from '../target.ts';

/** The name, kind and description of each SDK target; the targets are built from these. */
export const SDK_TARGET_INFOS = {
  sdk: {
    name: 'sdk',
    kind: 'sdk',
    description: 'MCP TypeScript SDK 1.32 transport + McpServer, one example InMemoryEventStore per session (simpleStreamableHttp)',
    breaks: [],
  },
  sdkShared: {
    name: 'sdk-shared',
    kind: 'sdk',
    description: 'MCP TypeScript SDK 1.32 transport + McpServer, one example InMemoryEventStore shared by all sessions (ssePollingExample)',
    breaks: [],
  },
  sdkCore: {
    name: 'sdk-core',
    kind: 'sdk',
    description: 'MCP TypeScript SDK 1.32 transport + McpServer with resumecheck/event-store (the decision core), one backend per incarnation',
    breaks: [],
  },
} as const satisfies Record<string, TargetInfo>;
