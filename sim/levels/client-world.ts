// The client level's world: one real client (behind its adapter), the network between it and the reference server as
// exchanges the simulator holds, the server's tool executions, the simulated clock, and what the client observed.

import type { PropertyName } from '../../properties/names.ts';
import type { Frame, JsonRpcMessage, ServerInstance, TargetRun, ToolName } from '../../targets/target.ts';
import type { Quiescence } from '../../targets/sdk/quiescence.ts';
import type { SimConfig } from '../config.ts';
import type { Prng } from '../prng.ts';
import type { Violation } from '../world.ts';
import type { SimClock } from './clock.ts';
import type { StepRecord } from './records.ts';

/** One HTTP exchange the client started through its `fetch`: the request as sent, the response as the network carries it. */
export interface Exchange {
  readonly index: number;
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** The `Mcp-Session-Id` header sent, or null. */
  readonly sessionId: string | null;
  /** The `Last-Event-ID` header sent, or null. */
  readonly lastEventId: string | null;
  readonly body: JsonRpcMessage | null;
  /** The body's JSON-RPC method, if any. */
  readonly bodyMethod: string | null;
  /**
   * `sent`: the request is on its way (a slow response is one left here); `streaming`: the head reached the client and
   * the body is an open SSE stream; `done`: the exchange is over (answered without a stream, ended, or cut).
   */
  phase: 'sent' | 'streaming' | 'done';
  /** The response status; 0 until one reached the client (and for an exchange cut before). */
  status: number;
  /** The stream this exchange carries, for SSE responses; null otherwise. */
  stream: string | null;
  /** Frames the server wrote that the network has not delivered yet. */
  readonly queue: Frame[];
  /** The server ended the body; the end reaches the client after the queued frames. */
  endQueued: boolean;
  /** Settles the client's `fetch` (set while `sent`). */
  respond: ((response: Response) => void) | null;
  fail: ((error: Error) => void) | null;
  /** The response body's controller (set while `streaming`). */
  controller: ReadableStreamDefaultController<Uint8Array> | null;
  /** Stops listening to the request's abort signal (called when the exchange is over). */
  release: () => void;
}

/** What the client observed of one stream (a POST's response stream, or a GET stream), across its connections. */
export interface ObservedStream {
  readonly key: string;
  readonly sessionId: string | null;
  /** The latest event ID delivered to the client on it. */
  eventIdLatest: string | null;
  /** Its last connection ended or was cut before the stream's response arrived, and no connection has joined it since. */
  broken: boolean;
  /** The JSON-RPC response of the stream's request was delivered. */
  answered: boolean;
  /** Resumption attempts in a row that failed (error status, or cut before a response). */
  resumeFailures: number;
}

/** One tool call the application made. */
export interface AppCall {
  readonly index: number;
  readonly callId: string;
  readonly tool: ToolName;
  /** How it settled; null while pending. */
  outcome: null | 'result' | 'error';
  detail: string;
}

/** One tool execution on the server. */
export interface ServerExecution {
  readonly callId: string;
  readonly tool: ToolName;
  readonly sessionId: string;
  readonly epoch: number;
  readonly ordinal: number;
  readonly progressSteps: number;
  k: number;
  finished: boolean;
}

/** The client level's world, a value passed explicitly; the engine's loop reads its violation, step and round. */
export class ClientWorld {
  violation: Violation | null = null;
  step = 0;
  /** The action kind (CLIENT_KINDS) of the step under way; -1 before the first and once the run settles. */
  acting = -1;
  healRound = 0;
  /** Notes of the step being recorded, or null when not recording. */
  notes: StepRecord[] | null = null;
  readonly exchanges: Exchange[] = [];
  readonly streams = new Map<string, ObservedStream>();
  /** The stream each event ID delivered to the client arrived on. */
  readonly eventStreams = new Map<string, string>();
  /** Sessions answered 404, with the exchange that got the 404. */
  readonly sessions404 = new Map<string, number>();
  readonly calls: AppCall[] = [];
  readonly executions: ServerExecution[] = [];
  /** Executions not finished, in start order. */
  readonly running: number[] = [];
  /** The application's connect: pending, done, or failed. */
  connect: 'pending' | 'done' | 'failed' = 'pending';
  epoch = 1;
  restarts = 0;
  /** A call the application makes again after a failure seen in the liveness phase has been made. */
  retried = false;
  /** Liveness steps taken, against the level's bound. */
  healSteps = 0;
  /** The liveness phase stopped at its step bound, with work left: a liveness verdict is then inconclusive. */
  healExhausted = false;
  readonly clockStartMs: number;
  server: ServerInstance | null = null;

  constructor(
    readonly config: SimConfig,
    readonly checked: ReadonlySet<PropertyName> | null,
    readonly clock: SimClock,
    readonly quiescence: Quiescence,
    readonly run: TargetRun,
    readonly serverRandom: Prng,
    readonly describe: (world: ClientWorld, kind: number, a: number, b: number) => string,
  ) {
    this.clockStartMs = clock.nowMs;
  }

  /** Describes an enabled action as traces print it. */
  describeAction(kind: number, a: number, b: number): string {
    return this.describe(this, kind, a, b);
  }

  /** Records an observation of the step being recorded (sim/levels/client-records.ts), when recording. */
  record(observation: StepRecord): void {
    if (this.notes !== null) this.notes.push(observation);
  }
}
