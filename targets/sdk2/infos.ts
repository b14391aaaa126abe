// What the 2.x SDK targets say about themselves, apart from the targets: listing them must not load the 2.x SDK
// (an optional peer of the package), zod or the transport, which only a run of one of them needs.

import { ROUTERS, SDK2_PACKAGE_NAME, STORES, sdkComponents } from '../sdk/components.ts';
import type { TargetInfo } from '../target.ts';

/** The name, kind, description and components of each 2.x SDK target; the targets are built from these. */
export const SDK2_TARGET_INFOS = {
  sdk2Example: {
    name: 'sdk2-example',
    kind: 'sdk',
    description: "MCP TypeScript SDK 2.4 transport + McpServer, the 2.x repository's example InMemoryEventStore (written anew here) one per session, its examples' routing",
    breaks: [],
    components: sdkComponents(SDK2_PACKAGE_NAME, STORES.repository2PerSession, ROUTERS.repository2),
  },
  sdk2Shared: {
    name: 'sdk2-shared',
    kind: 'sdk',
    description: "MCP TypeScript SDK 2.4 transport + McpServer, one 2.x repository example InMemoryEventStore shared by all sessions (examples/sse-polling, examples/repl), its examples' routing",
    breaks: [],
    components: sdkComponents(SDK2_PACKAGE_NAME, STORES.repository2Shared, ROUTERS.repository2),
  },
  sdk2Core: {
    name: 'sdk2-core',
    kind: 'sdk',
    description: "MCP TypeScript SDK 2.4 (@modelcontextprotocol/server) transport + McpServer with resumecheck/event-store, the 2.x repository examples' routing",
    breaks: [],
    components: sdkComponents(SDK2_PACKAGE_NAME, STORES.core, ROUTERS.repository2),
  },
  sdk2Dual: {
    name: 'sdk2-dual',
    kind: 'sdk',
    description: "MCP TypeScript SDK 2.4 dual-era endpoint: isLegacyRequest → sessionful transport + resumecheck/event-store, else createMcpHandler({ legacy: 'reject' })",
    breaks: [],
    eras: ['legacy', 'modern'],
    components: sdkComponents(SDK2_PACKAGE_NAME, STORES.core, ROUTERS.repository2Dual),
  },
  sdk2DualBare: {
    name: 'sdk2-dual-bare',
    kind: 'sdk',
    description: 'MCP TypeScript SDK 2.4 dual-era endpoint as sdk2-dual, but a legacy request for an unknown session goes to a new transport, which answers',
    breaks: [],
    eras: ['legacy', 'modern'],
    components: sdkComponents(SDK2_PACKAGE_NAME, STORES.core, ROUTERS.bareDual),
  },
  sdk2Modern: {
    name: 'sdk2-modern',
    kind: 'sdk',
    description: "MCP TypeScript SDK 2.4 2026-07-28-only endpoint: createMcpHandler({ legacy: 'reject' }) alone, a fresh McpServer per request, no session",
    breaks: [],
    eras: ['modern'],
    components: sdkComponents(SDK2_PACKAGE_NAME, STORES.none, ROUTERS.modernOnly),
  },
} as const satisfies Record<string, TargetInfo>;
