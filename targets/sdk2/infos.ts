// What the 2.x SDK targets say about themselves, apart from the targets: listing them must not load the 2.x SDK
// (an optional peer of the package), zod or the transport, which only a run of one of them needs.

import type { TargetInfo } from '../target.ts';

/** The name, kind and description of each 2.x SDK target; the targets are built from these. */
export const SDK2_TARGET_INFOS = {
  sdk2Example: {
    name: 'sdk2-example',
    kind: 'sdk',
    description: 'MCP TypeScript SDK 2.4 transport + McpServer, the 1.x example InMemoryEventStore per session (simpleStreamableHttp)',
    breaks: [],
  },
  sdk2Shared: {
    name: 'sdk2-shared',
    kind: 'sdk',
    description: 'MCP TypeScript SDK 2.4 transport + McpServer, one 1.x example InMemoryEventStore shared by all sessions (ssePollingExample)',
    breaks: [],
  },
  sdk2Core: {
    name: 'sdk2-core',
    kind: 'sdk',
    description: 'MCP TypeScript SDK 2.4 (@modelcontextprotocol/server) transport + McpServer with resumecheck/event-store, simpleStreamableHttp routing',
    breaks: [],
  },
  sdk2Dual: {
    name: 'sdk2-dual',
    kind: 'sdk',
    description: "MCP TypeScript SDK 2.4 dual-era endpoint: isLegacyRequest → sessionful transport + resumecheck/event-store, else createMcpHandler({ legacy: 'reject' })",
    breaks: [],
    eras: ['legacy', 'modern'],
  },
  sdk2DualBare: {
    name: 'sdk2-dual-bare',
    kind: 'sdk',
    description: 'MCP TypeScript SDK 2.4 dual-era endpoint as sdk2-dual, but a legacy request for an unknown session goes to a new transport, which answers',
    breaks: [],
    eras: ['legacy', 'modern'],
  },
  sdk2Modern: {
    name: 'sdk2-modern',
    kind: 'sdk',
    description: "MCP TypeScript SDK 2.4 2026-07-28-only endpoint: createMcpHandler({ legacy: 'reject' }) alone, a fresh McpServer per request, no session",
    breaks: [],
    eras: ['modern'],
  },
} as const satisfies Record<string, TargetInfo>;
