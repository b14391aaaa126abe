// The configuration of a simulation run: every bound, and the weights a random walk gives each action kind.

/** Action kinds: what may happen in one step. Faults are verbs; the comment says who does it. */
export const ACTION_KINDS = [
  'initialize', // client: POST initialize (again, after a 404)
  'call', // client: POST tools/call
  'callStale', // proxy: a new tools/call POST carrying a stale Last-Event-ID
  'cut', // network: the client loses a connection
  'resumeLatest', // client: GET with the latest cursor of a stream
  'resumeEarlier', // client: GET with an earlier cursor of a stream
  'resumeCompleted', // client: GET with a cursor before the result of a completed stream
  'resumeForeign', // proxy: GET with another session's cursor
  'resumePreRestart', // client: GET with a cursor from before a restart
  'resumeForged', // attacker: GET with a forged cursor (a number in it changed)
  'resumeMalformed', // attacker: GET with a string that is no event ID
  'openStandalone', // client: GET without a cursor
  'resend', // proxy: re-sends a tools/call POST with the same request id
  'delete', // client: DELETE its session
  'headerless', // proxy: a GET without Mcp-Session-Id
  'advance', // server: a tool takes its next step (progress or result)
  'notify', // server: a notification on a session's standalone stream
  'serverClose', // server: closes a connection asking the client to poll back (2025-11-25)
  'restart', // server: a new incarnation (epoch)
  'expire', // server: a session expires
  // Kinds added later come last, and their actions are enumerated after the others, so a recorded choice index
  // still names the action it named before they existed.
  'resumeAttached', // client or proxy: GET for a stream one of its connections still carries (latest or earlier cursor)
  'resendInFlight', // proxy or client: POST under a request id still in flight in the session (same content, or other)
  'resumeTerminal', // client: GET with the terminal event's ID of a completed stream
  'loseTail', // network: the next k frames written on a connection are lost, then the connection breaks
  'crashNode', // server: one node of several crashes (its memory is gone, the shared storage stays)
  'restartNode', // server: the crashed node boots again, empty
  'catchUp', // server: a lagging store reaches every node (liveness phase only)
  // The 2026-07-28 (modern) client's kinds, enumerated only for modern clients, after every other kind.
  'callModern', // client: a 2026-07-28 POST tools/call (the _meta envelope, no session, no cursor)
  'reissue', // client: re-issues a call whose exchange broke before its result, under a new request ID (same arguments)
  'callProxied', // proxy: attaches a legacy session's Mcp-Session-Id and/or Last-Event-ID to a modern call
  'probeModern', // client library: a 2026-07-28 GET or DELETE on the endpoint (no session)
  // Issue 17's kinds, enumerated after every other kind (the modern ones included).
  'resumeSuperseded', // client: GET with the latest cursor of its standalone stream that a later standalone GET superseded
  'abortTool', // server: a running tool fails or is cancelled on the server, without an answer (its stream is aborted)
  'resendEchoed', // client: re-sends its own tools/call request that the server echoed to it, taking it for a request (seed 000)
  'reissueLegacy', // client: re-issues a legacy call under a new request ID after a reset, or after a 404 in its new session (config reissueAfterReset)
  // Enumerated after every other kind, and only with config versionFaults.
  'badVersion', // proxy: sends a client's standalone GET or DELETE with an MCP-Protocol-Version no revision has (UNSUPPORTED_VERSION)
  // Enumerated after every other kind, and only on a run whose tools answer inside their request (TargetRun.answersWithinRequest).
  'callLossy', // client and network: a tools/call whose response loses everything after its first event, then breaks
  // Enumerated after every other kind, on the same runs as callLossy.
  'callTogether', // clients: two clients each send a tools/call at once, both requests out before either is answered
] as const;

/** One kind of action. */
export type ActionKind = (typeof ACTION_KINDS)[number];

/** Kinds that are faults: swarm runs switch a random subset of them off. */
export const FAULT_KINDS: readonly ActionKind[] = [
  'callStale',
  'cut',
  'resumeEarlier',
  'resumeCompleted',
  'resumeForeign',
  'resumePreRestart',
  'resumeForged',
  'resumeMalformed',
  'resend',
  'delete',
  'headerless',
  'serverClose',
  'restart',
  'expire',
  'resumeAttached',
  'resendInFlight',
  'resumeTerminal',
  'loseTail',
];

/**
 * Faults of deployments of several nodes. Apart from FAULT_KINDS so that a one-node run draws exactly what it drew
 * before they existed; a swarm run weighs them from a stream of its own (sim/choices.ts).
 */
export const NODE_FAULT_KINDS: readonly ActionKind[] = ['crashNode', 'restartNode'];

/**
 * The fault of config versionFaults: apart from FAULT_KINDS for the same reason (a swarm run weighs it from a stream of
 * its own), and enumerated only when the config asks for it, so that a run without it offers what it offered before.
 */
export const VERSION_FAULT_KINDS: readonly ActionKind[] = ['badVersion'];

/** The MCP-Protocol-Version the badVersion fault sends: well formed, and no revision's (every server must refuse it). */
export const UNSUPPORTED_VERSION = '1999-01-01';

/**
 * The protocol revisions a simulated client may negotiate, oldest first. The first three are the legacy era
 * (sessions, SSE resumability); 2026-07-28 is the modern era (no session, no GET stream, a disconnect cancels).
 */
export const REVISIONS = ['2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'] as const;

/** One protocol revision. */
export type Revision = (typeof REVISIONS)[number];

/** The revision of the modern (stateless) era. */
export const MODERN_REVISION: Revision = '2026-07-28';

/** What `--protocol` takes: one revision for every client, or `mixed` (each client draws one from the seed). */
export type ProtocolChoice = Revision | 'mixed';

/** True when `revision` is of the modern era. */
export function isModernRevision(revision: Revision): boolean {
  return revision === MODERN_REVISION;
}

/** The legacy era's revisions (sessions, SSE resumability), oldest first. */
export const LEGACY_REVISIONS: readonly Revision[] = ['2025-03-26', '2025-06-18', '2025-11-25'];

/** The revision every client spoke before protocols were configurable, and the default on a legacy target. */
export const DEFAULT_REVISION: Revision = '2025-11-25';

/**
 * True when `revision` has polling closes (`retry`) and priming events: 2025-11-25 (SEP-1699) only. It takes any
 * version string, as an initialize result gives one (SimSession.negotiated), or none.
 */
export function hasPolling(revision: string | null | undefined): boolean {
  return revision === '2025-11-25';
}

/** True when requests after the initialize carry `MCP-Protocol-Version` (from 2025-06-18 on). */
export function sendsVersionHeader(revision: Revision): boolean {
  return revision !== '2025-03-26';
}

/** How a client numbers its requests. */
export type RequestIdHabit = 'monotonic' | 'restart';

/** Everything a run depends on besides the target and the choices. */
export interface SimConfig {
  /** Seeds the target's own randomness (session IDs, and the SDK's patched globals). */
  readonly seed: string;
  /** Number of clients, 1 to 3. */
  readonly clients: number;
  /** Steps in the fault phase at the most. */
  readonly stepsMax: number;
  /** Calls a client may make in one session. */
  readonly callsPerSessionMax: number;
  /** Restarts in one run at the most. */
  readonly restartsMax: number;
  /** Node crashes in one run at the most (deployments of several nodes); resolveConfig fills it in (default 2). */
  readonly nodeCrashesMax?: number;
  /** Progress notifications the `work` tool sends before its result. */
  readonly workProgressSteps: number;
  /** Events each stream retains, for targets with a window. */
  readonly windowEventsMax: number;
  /** Per client (cycled): `restart` numbers requests from 1 again in each new session, as real clients do. */
  readonly requestIdHabits: readonly RequestIdHabit[];
  /**
   * The revision the clients negotiate, or `mixed` (each run draws one per client, sim/revisions.ts); absent: the
   * target's default (2025-11-25, the revision every run spoke before; 2026-07-28 on a modern-only target).
   */
  readonly protocol?: ProtocolChoice;
  /**
   * Legacy clients re-issue a call whose stream ended in a reset, or whose session was lost (a 404, in the new
   * session once re-initialized), under a new request ID, as seed 004 describes ("re-issues them against the new
   * session"). Off by default: every run without it offers exactly what it offered before.
   */
  readonly reissueAfterReset?: boolean;
  /**
   * A proxy sends some of a client's requests with an MCP-Protocol-Version no revision has (the `badVersion` fault:
   * a standalone GET or a DELETE carrying UNSUPPORTED_VERSION), which a 2025-06-18 or 2025-11-25 server must answer 400
   * (`unsupported-version-400`). Off by default in process, so every run without it offers exactly what it offered
   * before; on for a server over the wire (cli/wire-options.ts), and with `fuzz --version-faults`.
   */
  readonly versionFaults?: boolean;
  /**
   * The store level's bounds (sim/levels/store-level.ts, an EventStore driven directly); absent at the other levels.
   * Its steps and restarts are `stepsMax` and `restartsMax`.
   */
  readonly store?: StoreLevelBounds;
}

/** What a store-level run is bounded by, besides its steps and restarts. */
export interface StoreLevelBounds {
  readonly sessionsPerEpochMax: number;
  /** Request (POST) streams per session; each session also has its standalone stream. */
  readonly postStreamsPerSessionMax: number;
  /** storeEvent calls per stream at the most. */
  readonly eventsPerStreamMax: number;
  /** The retention the checker expects (context.windowEventsMax): a cursor with at most this many events after it is resumed. */
  readonly windowEventsMax: number;
  /** Real milliseconds one awaited store call may take before it counts as never settling (check-store --call-timeout). */
  readonly callTimeoutMs: number;
}

/** The store level's bounds unless told otherwise (check-store's defaults): small enough to shrink well, large enough to exceed the window and interleave. */
export const DEFAULT_STORE_LEVEL_BOUNDS: StoreLevelBounds = { sessionsPerEpochMax: 3, postStreamsPerSessionMax: 2, eventsPerStreamMax: 7, windowEventsMax: 4, callTimeoutMs: 3_000 };

/** Bounds on each store-level setting: [least, most]. */
export const STORE_LEVEL_BOUNDS: Readonly<Record<keyof StoreLevelBounds, readonly [number, number]>> = {
  sessionsPerEpochMax: [1, 64],
  postStreamsPerSessionMax: [1, 16],
  eventsPerStreamMax: [1, 10_000],
  windowEventsMax: [1, 10_000],
  callTimeoutMs: [1, 600_000],
};

/** Defaults sized so the planted bugs are reachable in a few dozen steps. */
export const DEFAULT_CONFIG: SimConfig = {
  seed: '1',
  clients: 2,
  stepsMax: 40,
  callsPerSessionMax: 3,
  restartsMax: 2,
  nodeCrashesMax: 2,
  workProgressSteps: 2,
  windowEventsMax: 2,
  requestIdHabits: ['restart', 'monotonic'],
};

/** Threads an exhaustive search judges its last depth with, at the most (sim/search/explore-workers.ts). */
export const EXPLORE_THREADS_MAX = 16;

/** Worlds of the depth before the last at least, for the exhaustive search to share the last depth out among threads. */
export const PARALLEL_LEVEL_MIN = 2048;

/** Bounds on each numeric setting: [least, most]. */
export const CONFIG_BOUNDS = {
  clients: [1, 3],
  stepsMax: [1, 10_000],
  callsPerSessionMax: [1, 16],
  restartsMax: [0, 16],
  nodeCrashesMax: [0, 16],
  workProgressSteps: [0, 16],
  windowEventsMax: [1, 1_000],
} as const;

/** A setting out of its bounds: bad input, reported as one line. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Fills in defaults and checks every bound. */
export function resolveConfig(partial: Partial<SimConfig>): SimConfig {
  const config: SimConfig = { ...DEFAULT_CONFIG, ...partial };
  for (const [key, [least, most]] of Object.entries(CONFIG_BOUNDS)) {
    const value = config[key as keyof typeof CONFIG_BOUNDS];
    if (value === undefined || !Number.isInteger(value) || value < least || value > most) {
      throw new ConfigError(`${key} must be a whole number from ${least} to ${most}, got ${String(value)}`);
    }
  }
  if (config.protocol !== undefined && config.protocol !== 'mixed' && !(REVISIONS as readonly string[]).includes(config.protocol)) {
    throw new ConfigError(`protocol must be one of ${REVISIONS.join(', ')} or mixed, got ${String(config.protocol)}`);
  }
  for (const key of ['reissueAfterReset', 'versionFaults'] as const) {
    if (config[key] !== undefined && typeof config[key] !== 'boolean') throw new ConfigError(`${key} must be true or false, got ${String(config[key])}`);
  }
  if (config.requestIdHabits.length === 0 || config.requestIdHabits.some((habit) => habit !== 'monotonic' && habit !== 'restart')) {
    throw new ConfigError('requestIdHabits must list "monotonic" or "restart" at least once');
  }
  if (config.store !== undefined) {
    if (typeof config.store !== 'object' || config.store === null) throw new ConfigError('store must be an object of the store level\'s bounds');
    for (const [key, [least, most]] of Object.entries(STORE_LEVEL_BOUNDS)) {
      const value = config.store[key as keyof StoreLevelBounds];
      if (!Number.isInteger(value) || value < least || value > most) throw new ConfigError(`store.${key} must be a whole number from ${least} to ${most}, got ${String(value)}`);
    }
  }
  return config;
}

/** Counterexamples a fuzz keeps per property by default, each of another signature (sim/signature.ts): `--per-property`. */
export const PER_PROPERTY_DEFAULT = 3;
/** The most `--per-property` may ask for. */
export const PER_PROPERTY_MAX = 16;
