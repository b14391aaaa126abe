// What each SDK target is made of, by name: the package's transport (and McpServer), the event store each session's
// transport gets, the router in front of the transports, and the harness that drives them. A finding is charged to
// one of them (sim/shrink/attribution.ts) by replaying its counterexample with resumecheck's correct store or the
// specification's routing in place of the target's own. Plain strings: listing targets loads no SDK.

import type { TargetComponents } from '../target.ts';

/** The harness every SDK target shares: it drives the transport in process, and its simulated clients make the requests. */
export const SDK_HARNESS = "resumecheck's in-process SDK harness (targets/sdk/sdk-server.ts) and its simulated clients";

/** The event stores the SDK targets pair with a transport. */
export const STORES = {
  example1PerSession: '1.x example InMemoryEventStore (@modelcontextprotocol/sdk/examples/shared), one per session, as simpleStreamableHttp wires it',
  example1Shared: '1.x example InMemoryEventStore (@modelcontextprotocol/sdk/examples/shared), one shared by every session, as ssePollingExample wires it',
  core: 'resumecheck/event-store, one backend per incarnation scoped per session, its window the run\'s --window',
  repository2PerSession: "2.x repository example InMemoryEventStore (examples/shared, main at 3924de9; targets/sdk2/repository-event-store.ts), one per session",
  repository2Shared: '2.x repository example InMemoryEventStore (examples/shared, main at 3924de9; targets/sdk2/repository-event-store.ts), one shared by every session, as examples/sse-polling and examples/repl wire it',
  none: 'none (a 2026-07-28-only endpoint holds no session)',
} as const;

/** The routers in front of the transports. */
export const ROUTERS = {
  example1: 'session map of the 1.x example servers: 404 for an unknown session ID, 400 without one',
  repository2: "session map of the 2.x repository's examples (main at 3924de9): 404 'Session not found' for an unknown session ID, 400 without one",
  repository2Dual: "isLegacyRequest in front (the 2.x package's documented dual-era wiring): modern requests to createMcpHandler({ legacy: 'reject' }), legacy ones to the 2.x repository examples' session map",
  bareDual: "isLegacyRequest in front, and no answer of the application's own: a legacy request the map cannot place goes to a new transport, which answers it",
  modernOnly: "every request to createMcpHandler(factory, { legacy: 'reject' }), a fresh McpServer per request",
} as const;

/** What a store or router is replaced with to see whether a finding is that component's. */
export const CORRECT = {
  store: 'resumecheck/event-store (one store per session, its default window of 256 events, never reached in a run)',
  router: 'the specification\'s routing (404 for an unknown session ID, 400 without one)',
} as const;

/** The 1.x line's package. */
export const SDK1_PACKAGE_NAME = '@modelcontextprotocol/sdk';
/** The 2.x line's server package. */
export const SDK2_PACKAGE_NAME = '@modelcontextprotocol/server';

/** An SDK target's components: its line's package, its store and router, the shared harness. */
export function sdkComponents(transport: string, store: string, router: string): TargetComponents {
  return { transport, store, router, harness: SDK_HARNESS };
}
