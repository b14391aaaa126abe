// The world of one contract run: the sessions and streams the checker drove the store with, every call it made and
// how each settled, in the order things happened. One value per run, passed explicitly.

import type { EventStore } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Prng } from '../sim/prng.ts';
import type { EventStoreFactory } from '../targets/module/store-module.ts';
import type { ContractPropertyName } from './contract-properties.ts';

/** Bounds and settings of a contract run. */
export interface ContractConfig {
  /** The run's seed: session and stream IDs, forged cursors, and the store's patched clock and randomness. */
  readonly seed: string;
  /** One store instance per incarnation serving every session (else one per session). */
  readonly shared: boolean;
  /** Operations in the run at the most. */
  readonly stepsMax: number;
  readonly sessionsPerEpochMax: number;
  /** Request (POST) streams per session; each session also has its standalone stream. */
  readonly postStreamsPerSessionMax: number;
  /** storeEvent calls per stream at the most. */
  readonly eventsPerStreamMax: number;
  readonly restartsMax: number;
  /** The retention the checker expects (context.windowEventsMax). */
  readonly windowEventsMax: number;
  /** Real milliseconds one awaited store call may take before it counts as never settling (--call-timeout). */
  readonly callTimeoutMs: number;
  /** Storage and sessions outlive restarts (--durable): a live session's pre-restart cursors are its own. */
  readonly durable: boolean;
}

/** Real milliseconds a store call may take unless --call-timeout says otherwise. */
export const DEFAULT_CALL_TIMEOUT_MS = 3_000;

/** Defaults: small enough to shrink well, large enough to exceed the window and interleave. */
export const DEFAULT_CONTRACT_CONFIG: Omit<ContractConfig, 'seed' | 'shared'> = {
  stepsMax: 40,
  sessionsPerEpochMax: 3,
  postStreamsPerSessionMax: 2,
  eventsPerStreamMax: 7,
  restartsMax: 1,
  windowEventsMax: 4,
  callTimeoutMs: DEFAULT_CALL_TIMEOUT_MS,
  durable: false,
};

/** A session the checker opened. */
export interface ContractSession {
  readonly index: number;
  /** A, B, C, ... in creation order across incarnations. */
  readonly label: string;
  /** Its `Mcp-Session-Id`, as the factory was told it. */
  readonly id: string;
  /** The incarnation it lives in now (with `durable`, a session carried over a restart moves on). */
  epoch: number;
  /** The store its transport would use: its own instance, or the incarnation's shared one. */
  store: EventStore;
  readonly streams: ContractStream[];
  /** Request IDs of its responses. */
  requestIdNext: number;
}

/** A stream as the store sees it: a POST stream (UUID-like ID, priming event first) or the standalone `_GET_stream`. */
export interface ContractStream {
  readonly index: number;
  readonly session: ContractSession;
  /** `A.post1`, `A.standalone`. */
  readonly label: string;
  readonly streamId: string;
  readonly kind: 'post' | 'standalone';
  /** The incarnation that opened it: a request stream dies with its incarnation (its request is gone). */
  readonly epoch: number;
  /** storeEvent calls on it, in call order. */
  readonly calls: StoreCall[];
  /** The events whose storeEvent resolved, in resolution order. */
  readonly resolved: StoredEvent[];
  /** The call that stored its response, once started: nothing more is stored on the stream after it. */
  responseCall: StoreCall | null;
}

/** An event the store took: the ID it returned and what was stored. */
export interface StoredEvent {
  readonly id: string;
  readonly call: StoreCall;
  readonly stream: ContractStream;
  /** Its place in the run's resolution order (0-based, across every stream). */
  readonly order: number;
}

/** One storeEvent call. */
export interface StoreCall {
  readonly index: number;
  readonly stream: ContractStream;
  /** `A.post1#2`; #0 is a POST stream's priming event. */
  readonly label: string;
  /** A JSON copy of the message given, for comparing what replays send. */
  readonly snapshot: unknown;
  /** The step that started it. */
  readonly step: number;
  /** The run's call clock when it started: orders starts of store calls and replays. */
  readonly tick: number;
  state: 'pending' | 'resolved' | 'rejected';
  value: unknown;
  error: string | null;
  event: StoredEvent | null;
}

/** How the cursor of a replay was obtained. */
export type CursorKind = 'own' | 'foreign' | 'pre-restart' | 'forged' | 'malformed';

/** One send callback call of a replay. */
export interface SentEvent {
  readonly eventId: unknown;
  readonly snapshot: unknown;
}

/** One resumption: getStreamIdForEventId (when the store has it), then replayEventsAfter. */
export interface ReplayCall {
  readonly index: number;
  readonly session: ContractSession;
  readonly cursor: string;
  readonly kind: CursorKind;
  /** The event the cursor is the ID of (own, foreign, pre-restart); null for forged and malformed cursors. */
  readonly source: StoredEvent | null;
  readonly step: number;
  /** The call clock when replayEventsAfter was called (or the lookup refused it). */
  tick: number;
  /** The resolution count when replayEventsAfter was called: events with a lower order were stored before. */
  resolvedBefore: number;
  lookup: { readonly state: 'none' } | { readonly state: 'pending' } | { readonly state: 'resolved'; readonly value: unknown } | { readonly state: 'rejected'; readonly error: string };
  state: 'lookup' | 'refused' | 'pending' | 'returned' | 'threw';
  returned: unknown;
  error: string | null;
  readonly sends: SentEvent[];
  /** Send callbacks waiting to be released, oldest first. */
  readonly held: Array<() => void>;
}

/** A contract violation as data: which property, at which step the offending call started, and what happened. */
export interface ContractViolation {
  readonly property: ContractPropertyName;
  readonly step: number;
  readonly explanation: string;
}

/** One step of a recorded run, as a person reads it. */
export interface ContractStep {
  /** The choice as recorded: an index into the enabled operations. */
  readonly choice: number;
  readonly action: string;
  readonly notes: readonly string[];
}

/** Everything one run holds. */
export interface ContractWorld {
  readonly config: ContractConfig;
  readonly factory: EventStoreFactory;
  /** Given to the factory as `context.onRunEnd`: hooks called when the run is over. */
  readonly onRunEnd: (hook: () => unknown) => void;
  readonly where: string;
  readonly prng: Prng;
  epoch: number;
  restarts: number;
  /** The shared instance of the current incarnation (with `shared`). */
  sharedStore: EventStore | null;
  readonly sessions: ContractSession[];
  readonly streams: ContractStream[];
  readonly storeCalls: StoreCall[];
  readonly replays: ReplayCall[];
  /** Every event ID a storeEvent resolved to (first owner kept for duplicates: only for telling IDs issued from new ones). */
  readonly eventsById: Map<string, StoredEvent>;
  /** Every storeEvent call by the origin its message carries (`A.post1#2`): how a replayed event is attributed. */
  readonly callsByOrigin: Map<string, StoreCall>;
  /** Resolutions so far. */
  resolutions: number;
  /** Calls started so far (store and replay). */
  tick: number;
  /** Things that happened (resolutions, sends, returns), as they happened. */
  activity: number;
  step: number;
  /**
   * Waits for the store that ran out the call timeout. After the first, the run's verdict is known (the call it waited
   * for never settled): the run takes no further step and waits no more, so a hung call costs one timeout per run.
   */
  timeoutsWaited: number;
  /** Notes of the current step, when recording. */
  notes: string[] | null;
}

/** The label of the n-th session (0-based): A..Z, then A2.. */
export function sessionLabel(index: number): string {
  const letter = String.fromCharCode(65 + (index % 26));
  return index < 26 ? letter : `${letter}${Math.floor(index / 26) + 1}`;
}

/** Appends a note to the current step, when recording. */
export function note(world: ContractWorld, text: string): void {
  if (world.notes !== null) world.notes.push(text);
}

/** Characters of a value shown in notes and explanations; longer ones keep their start and their end. */
const SHOWN_MAX = 240;

/** Shortens a value for notes and explanations (the end is kept too: payload provenance sits there). */
export function show(value: unknown): string {
  if (value === undefined) return 'undefined';
  const text = typeof value === 'string' ? JSON.stringify(value) : safeJson(value);
  return text.length > SHOWN_MAX ? `${text.slice(0, SHOWN_MAX / 2 - 2)}...${text.slice(-(SHOWN_MAX / 2 - 2))}` : text;
}

/** The origin key of a stream position: `A.post1#2`. */
export function originKey(streamLabel: string, position: number): string {
  return `${streamLabel}#${position}`;
}

/**
 * The origin a stored message carries (stream label and position, put in its payload by the checker), or null for
 * a message without one (a priming event {}, or a payload the store altered).
 */
export function originOf(snapshot: unknown): string | null {
  if (typeof snapshot !== 'object' || snapshot === null) return null;
  const record = snapshot as Record<string, unknown>;
  const params = record['params'] as Record<string, unknown> | undefined;
  const result = record['result'] as Record<string, unknown> | undefined;
  for (const candidate of [params?.['_meta'], params?.['data'], result?.['structuredContent']]) {
    if (typeof candidate !== 'object' || candidate === null) continue;
    const origin = candidate as Record<string, unknown>;
    if (typeof origin['stream'] === 'string' && Number.isInteger(origin['position'])) return originKey(origin['stream'], origin['position'] as number);
  }
  return null;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** A JSON copy of a value (what goes over SSE), or the value itself when it is not JSON. */
export function snapshotOf(value: unknown): unknown {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? value : (JSON.parse(text) as unknown);
  } catch {
    return value;
  }
}

/** Structural equality of JSON values. */
export function deepEqual(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null) return false;
  if (Array.isArray(left) !== Array.isArray(right)) return false;
  if (Array.isArray(left) && Array.isArray(right)) {
    return left.length === right.length && left.every((item, index) => deepEqual(item, right[index]));
  }
  const leftRecord = left as Record<string, unknown>;
  const rightRecord = right as Record<string, unknown>;
  const leftKeys = Object.keys(leftRecord);
  const rightKeys = Object.keys(rightRecord);
  return leftKeys.length === rightKeys.length && leftKeys.every((key) => Object.hasOwn(rightRecord, key) && deepEqual(leftRecord[key], rightRecord[key]));
}

/** How an event is named in notes and explanations. */
export function describeEvent(event: StoredEvent): string {
  return `${event.call.label} (id ${show(event.id)})`;
}
