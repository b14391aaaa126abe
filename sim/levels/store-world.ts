// The store level's world: the sessions and streams a run drove an EventStore with, every call it made and how each
// settled, in the order things happened. One value per run, passed explicitly; the engine's loop reads its
// violation, step and round (LevelWorld).

import type { EventStore } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { PropertyName } from '../../properties/names.ts';
import type { EventStoreFactory } from '../../targets/module/store-module.ts';
import type { SimConfig, StoreLevelBounds } from '../config.ts';
import type { Prng } from '../prng.ts';
import type { Violation } from '../world.ts';
import type { LevelWorld } from './level.ts';
import type { StepRecord } from './records.ts';

/** What a store-level run is a function of besides its choices: its seed, its bounds, and how the store is used. */
export interface StoreSettings extends StoreLevelBounds {
  /** The run's seed: session and stream IDs, forged cursors, and the store's patched clock and randomness. */
  readonly seed: string;
  /** One store instance per incarnation serving every session (else one per session). */
  readonly shared: boolean;
  /** Storage and sessions outlive restarts (--durable): a live session's pre-restart cursors are its own. */
  readonly durable: boolean;
  /** Operations in the run at the most. */
  readonly stepsMax: number;
  readonly restartsMax: number;
}

/** A session the run opened. */
export interface StoreSession {
  readonly index: number;
  /** A, B, C, ... in creation order across incarnations. */
  readonly label: string;
  /** Its `Mcp-Session-Id`, as the factory was told it. */
  readonly id: string;
  /** The incarnation it lives in now (with `durable`, a session carried over a restart moves on). */
  epoch: number;
  /** The store its transport would use: its own instance, or the incarnation's shared one. */
  store: EventStore;
  readonly streams: StoreStream[];
  /** Request IDs of its responses. */
  requestIdNext: number;
}

/** A stream as the store sees it: a POST stream (UUID-like ID, priming event first) or the standalone `_GET_stream`. */
export interface StoreStream {
  readonly index: number;
  readonly session: StoreSession;
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
  readonly stream: StoreStream;
  /** Its place in the run's resolution order (0-based, across every stream). */
  readonly order: number;
}

/** One storeEvent call. */
export interface StoreCall {
  readonly index: number;
  readonly stream: StoreStream;
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
  readonly session: StoreSession;
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

/** Everything one store-level run holds. */
export class StoreWorld implements LevelWorld {
  violation: Violation | null = null;
  /** Fault-phase steps taken (the engine counts them). */
  step = 0;
  healRound = 0;
  epoch = 1;
  restarts = 0;
  /** The shared instance of the current incarnation (with `shared`). */
  sharedStore: EventStore | null = null;
  readonly sessions: StoreSession[] = [];
  readonly streams: StoreStream[] = [];
  readonly storeCalls: StoreCall[] = [];
  readonly replays: ReplayCall[] = [];
  /** Every event ID a storeEvent resolved to (first owner kept for duplicates: only for telling IDs issued from new ones). */
  readonly eventsById = new Map<string, StoredEvent>();
  /** Every storeEvent call by the origin its message carries (`A.post1#2`): how a replayed event is attributed. */
  readonly callsByOrigin = new Map<string, StoreCall>();
  /** Resolutions so far. */
  resolutions = 0;
  /** Calls started so far (store and replay). */
  tick = 0;
  /** Things that happened (resolutions, sends, returns), as they happened. */
  activity = 0;
  /**
   * Waits for the store that ran out the call timeout. After the first, the run's verdict is known (the call it waited
   * for never settled): the run takes no further step and waits no more, so a hung call costs one timeout per run.
   */
  timeoutsWaited = 0;
  /** The final drain has been made (the liveness phase's one step). */
  drained = false;
  /** Notes of the current step, when recording. */
  notes: StepRecord[] | null = null;

  constructor(
    readonly config: SimConfig,
    readonly settings: StoreSettings,
    readonly checked: ReadonlySet<PropertyName> | null,
    readonly factory: EventStoreFactory,
    /** Given to the factory as `context.onRunEnd`: hooks called when the run is over. */
    readonly onRunEnd: (hook: () => unknown) => void,
    readonly where: string,
    readonly prng: Prng,
    private readonly describe: (world: StoreWorld, kind: number, a: number, b: number) => string,
  ) {}

  /** Describes an enabled action as traces print it (scripts and the shrinker match on it). */
  describeAction(kind: number, a: number, b: number): string {
    return this.describe(this, kind, a, b);
  }
}

/** The label of the n-th session (0-based): A..Z, then A2.. */
export function sessionLabel(index: number): string {
  const letter = String.fromCharCode(65 + (index % 26));
  return index < 26 ? letter : `${letter}${Math.floor(index / 26) + 1}`;
}

/** Records an observation of the current step (sim/levels/store-records.ts), when recording. */
export function record(world: StoreWorld, observation: StepRecord): void {
  if (world.notes !== null) world.notes.push(observation);
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
 * The origin a stored message carries (stream label and position, put in its payload by the level), or null for a
 * message without one (a priming event {}, or a payload the store altered).
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
