// A tiny client for driving an SDK target's server instances directly in tests, without the simulator: it numbers
// connections and request IDs, restarts incarnations, and reads back what a recording host saw. Shared by the 1.x
// and 2.x characterisation tests so both lines are driven the same way.

import { INITIALIZED_NOTIFICATION, callRequest, initializeRequest, modernCallRequest, provenanceOf, standaloneNotification } from '../../sim/tools.ts';
import type { Frame, HttpRequest, HttpResponse, ServerInstance, Target, TargetRun, ToolName } from '../target.ts';
import { type Recorder, createRecorder } from './recording-host.ts';

/** Progress notifications the driven `work` tool sends before its result. */
export const WORK_PROGRESS_STEPS = 2;
/** The window the driven targets retain per stream. */
export const WINDOW_EVENTS_MAX = 16;

/** The revision of the modern era, as the driver's modern calls name it. */
export const MODERN_REVISION = '2026-07-28';

/** An HttpRequest without its connection number, which the driver allocates. */
export type UnnumberedRequest = HttpRequest extends infer R ? (R extends HttpRequest ? Omit<R, 'connection'> : never) : never;

/** What a 2026-07-28 call carries besides its body: by default no session, no cursor, a fresh request ID. */
export interface ModernCallOptions {
  /** A Mcp-Session-Id a proxy attached (a modern client sends none). */
  readonly sessionId?: string | null;
  /** A Last-Event-ID a proxy attached. */
  readonly lastEventId?: string | null;
  /** The JSON-RPC ID; default the driver's next one. */
  readonly requestId?: number;
}

/** A tiny client driving one run: connection numbers, request IDs, restarts. */
export interface Driver {
  readonly recorder: Recorder;
  readonly server: ServerInstance;
  readonly epoch: number;
  /** Initializes a session (initialize, then notifications/initialized) and returns its ID; throws unless 200 then 202. */
  initialize(): Promise<string>;
  call(sessionId: string, tool: ToolName, callId: string): Promise<{ connection: number; response: HttpResponse }>;
  get(sessionId: string | null, lastEventId: string | null): Promise<{ connection: number; response: HttpResponse }>;
  /** Any request, on the next connection. */
  send(request: UnnumberedRequest): Promise<{ connection: number; response: HttpResponse }>;
  /** A 2026-07-28 tool call: the `_meta` envelope, `MCP-Protocol-Version: 2026-07-28`, no session unless given. */
  modernCall(tool: ToolName, callId: string, options?: ModernCallOptions): Promise<{ connection: number; response: HttpResponse }>;
  restart(): Promise<void>;
}

function createDriver(run: TargetRun, recorder: Recorder): Driver {
  let epoch = 1;
  let server = run.boot({ epoch }, recorder.hostFor(epoch));
  let connection = 0;
  let requestId = 0;
  return {
    recorder,
    get server() {
      return server;
    },
    get epoch() {
      return epoch;
    },
    async initialize() {
      connection += 1;
      requestId += 1;
      const response = await server.handle({ method: 'POST', connection, sessionId: null, lastEventId: null, body: initializeRequest(requestId) });
      const sessionId = response.sessionId;
      if (response.status !== 200 || sessionId === null) throw new Error(`initialize answered ${response.status} with session ${String(sessionId)}`);
      connection += 1;
      const initialized = await server.handle({ method: 'POST', connection, sessionId, lastEventId: null, body: INITIALIZED_NOTIFICATION });
      if (initialized.status !== 202) throw new Error(`notifications/initialized answered ${initialized.status}`);
      return sessionId;
    },
    async call(sessionId, tool, callId) {
      connection += 1;
      requestId += 1;
      const body = callRequest(requestId, tool, callId);
      return { connection, response: await server.handle({ method: 'POST', connection, sessionId, lastEventId: null, body }) };
    },
    async get(sessionId, lastEventId) {
      connection += 1;
      return { connection, response: await server.handle({ method: 'GET', connection, sessionId, lastEventId }) };
    },
    async send(request) {
      connection += 1;
      return { connection, response: await server.handle({ ...request, connection } as HttpRequest) };
    },
    async modernCall(tool, callId, options = {}) {
      connection += 1;
      if (options.requestId === undefined) requestId += 1;
      const body = modernCallRequest(options.requestId ?? requestId, tool, callId);
      const request: HttpRequest = {
        method: 'POST',
        connection,
        sessionId: options.sessionId ?? null,
        lastEventId: options.lastEventId ?? null,
        body,
        protocolVersion: MODERN_REVISION,
      };
      return { connection, response: await server.handle(request) };
    },
    async restart() {
      await server.dispose();
      epoch += 1;
      server = run.boot({ epoch }, recorder.hostFor(epoch));
    },
  };
}

/** Opens a run of `target` seeded with `seed`, drives it with `body`, closes it (in finally) and returns what it saw. */
export async function withRun(target: Target, seed: string, body: (driver: Driver) => Promise<void>): Promise<Recorder> {
  const recorder = createRecorder({ seed, workProgressSteps: WORK_PROGRESS_STEPS });
  const run = await target.open({ seed, windowEventsMax: WINDOW_EVENTS_MAX });
  try {
    await body(createDriver(run, recorder));
  } finally {
    await run.close();
  }
  return recorder;
}

/** The event ID of the last frame on a connection; throws when there is none. */
export function lastEventIdOf(frames: readonly Frame[]): string {
  const id = frames.at(-1)?.eventId;
  if (id === undefined || id === null) throw new Error('no frame with an event ID on that connection');
  return id;
}

/** Each frame as `k` of its provenance, `prime` for empty data, `{}` for anything without provenance. */
export function stepsOf(frames: readonly Frame[]): Array<number | string> {
  return frames.map((frame) => (frame.data === null ? 'prime' : (provenanceOf(frame.data)?.k ?? JSON.stringify(frame.data))));
}

/** The session of each message frame's provenance (null where it carries none). */
export function sessionsOf(frames: readonly Frame[]): Array<string | null> {
  return frames.filter((frame) => frame.data !== null).map((frame) => provenanceOf(frame.data)?.sessionId ?? null);
}

/** Session A has a work call cut after progress 1 and progress 2 stored; returns A's cursor (progress 1). */
export async function sessionWithMissedProgress(driver: Driver): Promise<{ sessionA: string; cursorA: string }> {
  const sessionA = await driver.initialize();
  const { connection } = await driver.call(sessionA, 'work', 'ca');
  await driver.server.advance(1);
  await driver.server.cut(connection);
  await driver.server.advance(1);
  return { sessionA, cursorA: lastEventIdOf(driver.recorder.framesOf(connection)) };
}

/**
 * A session's standalone stream gets notification 1, is cut, misses notification 2, and is resumed with 1's event
 * ID; then notification 3 is sent. Returns both exchanges, for the caller to judge what each carried.
 */
export async function resumeStandaloneAfterMissedNotification(
  driver: Driver,
): Promise<{ standalone: { connection: number; response: HttpResponse }; resume: { connection: number; response: HttpResponse } }> {
  const sessionId = await driver.initialize();
  const standalone = await driver.get(sessionId, null);
  const notify = (k: number): Promise<void> => Promise.resolve(driver.server.notify(sessionId, standaloneNotification({ epoch: driver.epoch, sessionId, k })));
  await notify(1);
  const framesBeforeCut = driver.recorder.framesOf(standalone.connection).length;
  await driver.server.cut(standalone.connection);
  await notify(2);
  if (framesBeforeCut === 0) throw new Error('the standalone stream carried no notification before the cut');
  const resume = await driver.get(sessionId, lastEventIdOf(driver.recorder.framesOf(standalone.connection)));
  await notify(3);
  return { standalone, resume };
}
