// The store level's actions: the operations a run drives the store with, which are enabled in a world, how each reads
// in a trace, and how each unfolds. Starting a call never awaits it: consecutive starts overlap, and the level yields
// to the store only at the operations that say so (await a call, release a send), in the order the choices pick.
// Sends are held until released, so stores run while a replay is in progress.

import type { EventStore } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { SDK_STANDALONE_STREAM_ID } from '../../event-store/index.ts';
import { waitUntil } from '../../targets/module/clock.ts';
import { type StoreContext, callFactory, firstLine } from '../../targets/module/store-module.ts';
import type { ActionList } from '../actions.ts';
import type { StepRecord } from './records.ts';
import { STORE_VOCABULARY } from './store-records.ts';
import {
  type CursorKind,
  type ReplayCall,
  type StoreCall,
  type StoredEvent,
  type StoreSession,
  type StoreStream,
  type StoreWorld,
  originKey,
  originOf,
  record,
  sessionLabel,
  show,
  snapshotOf,
} from './store-world.ts';

/** The kinds of operation, in the canonical order actions are listed in; a kind's number is its place here. */
export const STORE_ACTION_KINDS = [
  'openSession', // a client initializes: a new session (and, per session, a factory call)
  'reuseSessionId', // after a restart, a new session gets an ID an earlier incarnation used
  'openPostStream', // a POST opens a request stream: storeEvent of its priming event {}
  'store', // the server sends a notification on a stream: storeEvent, not awaited
  'respond', // the server sends a request stream's response: storeEvent, the stream's last
  'replayOwn', // a client resumes with a cursor its session received
  'replayForeign', // a proxy presents another session's cursor
  'replayPreRestart', // a client presents a cursor issued before the restart
  'replayForged', // an attacker presents a real ID with one character changed
  'replayMalformed', // an attacker presents a string that is no event ID
  'awaitStore', // the level awaits one pending storeEvent (everything ready runs meanwhile)
  'awaitReplay', // the level awaits a replay that is not waiting on a send
  'releaseSend', // a replay's held send callback returns
  'restart', // the server restarts: every call finishes, then new instances for a new incarnation
  'drain', // the liveness phase's one step: every held send returns and every call is awaited
] as const;

/** One kind of operation. */
export type StoreActionKind = (typeof STORE_ACTION_KINDS)[number];

/** Each kind's number (its place in STORE_ACTION_KINDS). */
export const STORE_KINDS = Object.fromEntries(STORE_ACTION_KINDS.map((kind, index) => [kind, index])) as Readonly<Record<StoreActionKind, number>>;
const S = STORE_KINDS;

/** Rounds of the final drain at the most (each releases every held send and waits for something to happen). */
export const DRAIN_ROUNDS_MAX = 5_000;

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
const HEX = '0123456789abcdef';

function live(world: StoreWorld): StoreSession[] {
  return world.sessions.filter((session) => session.epoch === world.epoch);
}

function primingResolved(stream: StoreStream): boolean {
  return stream.kind === 'standalone' || stream.calls[0]?.state === 'resolved';
}

function canStore(world: StoreWorld, stream: StoreStream): boolean {
  return stream.session.epoch === world.epoch && (stream.kind === 'standalone' || stream.epoch === world.epoch) && stream.responseCall === null && stream.calls.length < world.settings.eventsPerStreamMax && primingResolved(stream);
}

/** The resolved events of a session, in resolution order: the cursors it holds. */
export function cursorsOf(world: StoreWorld, session: StoreSession): StoredEvent[] {
  const events: StoredEvent[] = [];
  for (const stream of session.streams) events.push(...stream.resolved);
  return events.sort((left, right) => left.order - right.order);
}

function latestOf(world: StoreWorld, session: StoreSession): StoredEvent | null {
  const events = cursorsOf(world, session);
  return events[events.length - 1] ?? null;
}

/** The cursor a pre-restart replay presents: the latest of an earlier session with the same ID, else the latest of the previous incarnation. */
function preRestartCursor(world: StoreWorld, session: StoreSession): StoredEvent | null {
  let best: StoredEvent | null = null;
  for (const other of world.sessions) {
    if (other.epoch >= world.epoch) continue;
    const latest = latestOf(world, other);
    if (latest === null) continue;
    if (other.id === session.id) return latest;
    if (other.epoch === world.epoch - 1 && (best === null || latest.order > best.order)) best = latest;
  }
  return best;
}

/**
 * The most actions a world of these bounds can enable at once: every cursor a session got is one resumption, and
 * every other kind is bounded by the sessions, streams and steps. The level's action list is at least this long.
 */
export function storeActionsMax(settings: StoreWorld['settings']): number {
  const sessions = settings.sessionsPerEpochMax;
  return 16 + sessions * (settings.restartsMax + 1) + sessions * (2 * settings.postStreamsPerSessionMax + 8 + sessions) + 3 * settings.stepsMax;
}

/** Fills `list` with every operation enabled in `world`, in canonical order. */
export function enumerateStoreActions(world: StoreWorld, list: ActionList): void {
  list.count = 0;
  const push = (kind: StoreActionKind, a = 0, b = 0): void => {
    const at = list.count;
    list.kind[at] = S[kind];
    list.a[at] = a;
    list.b[at] = b;
    list.count = at + 1;
  };
  const sessions = live(world);
  if (sessions.length < world.settings.sessionsPerEpochMax) {
    push('openSession');
    const used = new Set(sessions.map((session) => session.id));
    for (const earlier of world.sessions) {
      if (earlier.epoch < world.epoch && !used.has(earlier.id)) {
        used.add(earlier.id);
        push('reuseSessionId', earlier.index);
      }
    }
  }
  for (const session of sessions) {
    const posts = session.streams.filter((stream) => stream.kind === 'post').length;
    if (posts < world.settings.postStreamsPerSessionMax) push('openPostStream', session.index);
    for (const stream of session.streams) {
      if (!canStore(world, stream)) continue;
      push('store', stream.index);
      if (stream.kind === 'post') push('respond', stream.index);
    }
    const cursors = cursorsOf(world, session);
    cursors.forEach((_event, index) => push('replayOwn', session.index, index));
    for (const other of sessions) {
      if (other !== session && latestOf(world, other) !== null) push('replayForeign', session.index, other.index);
    }
    if (preRestartCursor(world, session) !== null) push('replayPreRestart', session.index);
    if (cursors.length > 0) push('replayForged', session.index);
    push('replayMalformed', session.index);
  }
  for (const call of world.storeCalls) if (call.state === 'pending') push('awaitStore', call.index);
  for (const replay of world.replays) {
    if (replay.held.length > 0) push('releaseSend', replay.index);
    else if (replay.state === 'pending' || replay.state === 'lookup') push('awaitReplay', replay.index);
  }
  if (world.restarts < world.settings.restartsMax && world.sessions.length > 0) push('restart');
}

/** A storeEvent call as a record's fields: its session, its stream, and its label (`event`, and `response` for the stream's response). */
function callFields(call: StoreCall) {
  const stream = call.stream;
  return { session: stream.session.label, stream: stream.label, event: originKey(stream.label, stream.calls.indexOf(call)), response: stream.responseCall === call };
}

/** An operation as a record (sim/levels/store-records.ts), from the world before it runs. */
export function storeActionRecord(world: StoreWorld, kindNumber: number, a: number, b: number): StepRecord {
  const session = (index: number) => world.sessions[index]!.label;
  const action = { kind: kindOf(kindNumber), a, b };
  switch (action.kind) {
    case 'openSession':
      return { kind: action.kind, epoch: world.epoch };
    case 'reuseSessionId':
      return { kind: action.kind, sessionReused: session(action.a) };
    case 'store':
    case 'respond': {
      const stream = world.streams[action.a]!;
      return { kind: action.kind, session: stream.session.label, stream: stream.label };
    }
    case 'replayOwn': {
      // The event's label, not its ID: the record names the same action when an earlier step is deleted.
      const event = cursorsOf(world, world.sessions[action.a]!)[action.b]!;
      return { kind: action.kind, ...callFields(event.call), session: session(action.a) };
    }
    case 'replayForeign':
      return { kind: action.kind, session: session(action.a), other: session(action.b) };
    case 'openPostStream':
    case 'replayPreRestart':
    case 'replayForged':
    case 'replayMalformed':
      return { kind: action.kind, session: session(action.a) };
    case 'awaitStore':
      return { kind: action.kind, ...callFields(world.storeCalls[action.a]!) };
    case 'awaitReplay':
    case 'releaseSend':
      return { kind: action.kind, replay: action.a + 1, session: world.replays[action.a]!.session.label };
    case 'restart':
      return { kind: action.kind, epoch: world.epoch + 1 };
    case 'drain':
      return { kind: action.kind };
  }
}

/** Names an operation for traces, from the world before it runs: its record's text. */
export function describeStoreAction(world: StoreWorld, kindNumber: number, a: number, b: number): string {
  return STORE_VOCABULARY.text(storeActionRecord(world, kindNumber, a, b));
}

function kindOf(kind: number): StoreActionKind {
  const name = STORE_ACTION_KINDS[kind];
  if (name === undefined) throw new Error(`assertion: store level action kind ${kind} unknown`);
  return name;
}

/**
 * Waits for the store until `done` holds or the call timeout passes (real time: the store may do I/O); resolves to
 * whether it holds. Once a wait of the run has run out, later waits only let the store's settled promises run: the
 * call that outlasted the timeout is judged as never settling whatever comes after, so waiting again would only cost
 * another timeout.
 */
async function waitForStore(world: StoreWorld, done: () => boolean): Promise<boolean> {
  if (world.timeoutsWaited > 0) return waitUntil(done, 0);
  if (await waitUntil(done, world.settings.callTimeoutMs)) return true;
  record(world, { kind: 'timeout', timeoutMs: world.settings.callTimeoutMs });
  world.timeoutsWaited += 1;
  return false;
}

/** Waits for the store until `done` holds or the call timeout passes. */
async function yieldUntil(world: StoreWorld, done: () => boolean): Promise<void> {
  await waitForStore(world, done);
}

/** The context of a factory call in this world. */
function contextOf(world: StoreWorld, sessionId: string | null): StoreContext {
  return {
    sessionId,
    epoch: world.epoch,
    shared: world.settings.shared,
    durable: world.settings.durable,
    windowEventsMax: world.settings.windowEventsMax,
    world: world.settings.seed,
    onRunEnd: world.onRunEnd,
  };
}

function drawId(world: StoreWorld, prefix: string, alphabet: string, length: number): string {
  let id = prefix;
  for (let index = 0; index < length; index += 1) id += alphabet.charAt(world.prng.below(alphabet.length));
  return id;
}

function drawUuid(world: StoreWorld): string {
  const hex = drawId(world, '', HEX, 32);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

async function openSession(world: StoreWorld, reuse: StoreSession | null): Promise<void> {
  const used = new Set(world.sessions.map((session) => session.id));
  let id = reuse?.id ?? drawId(world, 's', ALPHABET, 8);
  while (reuse === null && used.has(id)) id = drawId(world, 's', ALPHABET, 8);
  const index = world.sessions.length;
  const label = sessionLabel(index);
  let store: EventStore;
  if (world.settings.shared) {
    if (world.sharedStore === null) throw new Error('assertion: no shared store in this incarnation');
    store = world.sharedStore;
  } else {
    const context = contextOf(world, id);
    store = await callFactory(world.factory, context, world.where, world.settings.callTimeoutMs);
    record(world, { kind: 'factory', epoch: world.epoch, session: label, sessionId: show(context.sessionId) });
  }
  const session: StoreSession = { index, label, id, epoch: world.epoch, store, streams: [], requestIdNext: 1 };
  world.sessions.push(session);
  addStream(world, session, 'standalone', SDK_STANDALONE_STREAM_ID);
  record(world, { kind: 'sessionOpened', session: label, sessionId: id, shared: world.settings.shared });
}

function addStream(world: StoreWorld, session: StoreSession, kind: 'post' | 'standalone', streamId: string): StoreStream {
  const posts = session.streams.filter((stream) => stream.kind === 'post').length;
  const stream: StoreStream = {
    index: world.streams.length,
    session,
    label: `${session.label}.${kind === 'post' ? `post${posts + 1}` : 'standalone'}`,
    streamId,
    kind,
    epoch: world.epoch,
    calls: [],
    resolved: [],
    responseCall: null,
  };
  world.streams.push(stream);
  session.streams.push(stream);
  return stream;
}

/** The message of the next store on `stream`, shaped as the transport would store it. */
function messageFor(stream: StoreStream, kind: 'priming' | 'notification' | 'response'): JSONRPCMessage {
  const position = stream.calls.length;
  const provenance = { session: stream.session.label, stream: stream.label, position, tags: ['resumecheck', { position: [position] }] };
  if (kind === 'priming') return {} as JSONRPCMessage;
  if (kind === 'response') {
    const id = stream.session.requestIdNext;
    stream.session.requestIdNext += 1;
    return { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: `result of ${stream.label}` }], structuredContent: provenance } } as JSONRPCMessage;
  }
  if (stream.kind === 'standalone') {
    return { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', logger: 'resumecheck', data: provenance } } as JSONRPCMessage;
  }
  return { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: stream.label, progress: position, message: `${stream.label}#${position}`, _meta: provenance } } as JSONRPCMessage;
}

function startStore(world: StoreWorld, stream: StoreStream, kind: 'priming' | 'notification' | 'response'): void {
  const message = messageFor(stream, kind);
  const call: StoreCall = {
    index: world.storeCalls.length,
    stream,
    label: `${stream.label}#${stream.calls.length}${kind === 'response' ? ' (response)' : ''}`,
    snapshot: snapshotOf(message),
    step: world.step,
    tick: world.tick,
    state: 'pending',
    value: undefined,
    error: null,
    event: null,
  };
  world.tick += 1;
  world.storeCalls.push(call);
  world.callsByOrigin.set(originKey(stream.label, stream.calls.length), call);
  stream.calls.push(call);
  if (kind === 'response') stream.responseCall = call;
  record(world, { kind: 'storeStarted', ...callFields(call), streamId: show(stream.streamId) });
  let promise: Promise<string>;
  try {
    promise = Promise.resolve(stream.session.store.storeEvent(stream.streamId, message));
  } catch (error) {
    promise = Promise.reject(error);
  }
  promise.then(
    (value) => {
      world.activity += 1;
      call.state = 'resolved';
      call.value = value;
      if (typeof value === 'string' && value !== '') {
        const event: StoredEvent = { id: value, call, stream, order: world.resolutions };
        world.resolutions += 1;
        call.event = event;
        stream.resolved.push(event);
        if (!world.eventsById.has(value)) world.eventsById.set(value, event);
      }
      record(world, { kind: 'storeResolved', ...callFields(call), value: show(value) });
    },
    (error: unknown) => {
      world.activity += 1;
      call.state = 'rejected';
      call.error = firstLine(error);
      record(world, { kind: 'storeRejected', ...callFields(call), error: call.error });
    },
  );
}

/** A real ID with one character changed (kept within its character class), never an ID issued so far. */
function forge(world: StoreWorld, eventId: string): string {
  for (let attempt = 0; attempt < 20 && eventId.length > 0; attempt += 1) {
    const position = world.prng.below(eventId.length);
    const original = eventId.charAt(position);
    const alphabet = /[0-9]/.test(original) ? '0123456789' : /[a-z]/.test(original) ? 'abcdefghijklmnopqrstuvwxyz' : /[A-Z]/.test(original) ? 'ABCDEFGHIJKLMNOPQRSTUVWXYZ' : ALPHABET;
    const offset = 1 + world.prng.below(alphabet.length - 1);
    const replacement = alphabet.charAt((Math.max(0, alphabet.indexOf(original)) + offset) % alphabet.length);
    const forged = eventId.slice(0, position) + replacement + eventId.slice(position + 1);
    if (forged !== eventId && !world.eventsById.has(forged)) return forged;
  }
  return `${eventId}0`;
}

function malformed(world: StoreWorld): string {
  switch (world.prng.below(4)) {
    case 0:
      return drawId(world, '', ALPHABET, 16);
    case 1:
      return `garbage-${drawId(world, '', '0123456789', 6)}`;
    case 2:
      return drawId(world, '', HEX, 8) + '_' + drawId(world, '', HEX, 4);
    default:
      return `${SDK_STANDALONE_STREAM_ID}_${drawId(world, '', '0123456789', 13)}_${drawId(world, '', ALPHABET, 8)}`;
  }
}

async function startReplay(world: StoreWorld, session: StoreSession, cursor: string, given: CursorKind, givenSource: StoredEvent | null): Promise<void> {
  // What a cursor means is what it names for the session presenting it: a foreign, forged or pre-restart cursor equal
  // to one of the session's own IDs is that session's own cursor (a per-session counter repeats IDs across sessions).
  const own = given === 'own' ? null : (cursorsOf(world, session).find((event) => event.id === cursor) ?? null);
  const kind: CursorKind = own === null ? given : 'own';
  const source = own ?? givenSource;
  const replay: ReplayCall = {
    index: world.replays.length,
    session,
    cursor,
    kind,
    source,
    step: world.step,
    tick: world.tick,
    resolvedBefore: world.resolutions,
    lookup: { state: 'none' },
    state: 'lookup',
    returned: undefined,
    error: null,
    sends: [],
    held: [],
  };
  world.replays.push(replay);
  const store = session.store;
  const replayFields = { replay: replay.index + 1, session: session.label };
  record(world, { kind: 'replayStarted', ...replayFields, cursor: show(cursor) });
  if (own !== null) record(world, { kind: 'cursorOwn', ...callFields(own.call), ...replayFields });
  if (store.getStreamIdForEventId !== undefined) {
    // The transport asks first; a falsy answer is a 400 and replayEventsAfter is never called.
    replay.lookup = { state: 'pending' };
    let promise: Promise<string | undefined>;
    try {
      promise = Promise.resolve(store.getStreamIdForEventId(cursor));
    } catch (error) {
      promise = Promise.reject(error);
    }
    promise.then(
      (value) => {
        world.activity += 1;
        replay.lookup = { state: 'resolved', value };
        record(world, { kind: 'lookupResolved', ...replayFields, value: show(value) });
      },
      (error: unknown) => {
        world.activity += 1;
        replay.lookup = { state: 'rejected', error: firstLine(error) };
        record(world, { kind: 'lookupRejected', ...replayFields, error: firstLine(error) });
      },
    );
    await yieldUntil(world, () => replay.lookup.state !== 'pending');
    if (replay.lookup.state === 'pending') return;
  }
  continueReplay(world, replay);
}

/** After the lookup (if any): refused, or replayEventsAfter is called with a send callback that holds each send. */
function continueReplay(world: StoreWorld, replay: ReplayCall): void {
  const replayFields = { replay: replay.index + 1, session: replay.session.label };
  if (replay.lookup.state === 'rejected' || (replay.lookup.state === 'resolved' && !replay.lookup.value)) {
    replay.state = 'refused';
    replay.tick = world.tick;
    replay.resolvedBefore = world.resolutions;
    record(world, { kind: 'refused', ...replayFields, status: replay.lookup.state === 'rejected' ? 500 : 400 });
    return;
  }
  replay.state = 'pending';
  replay.tick = world.tick;
  replay.resolvedBefore = world.resolutions;
  world.tick += 1;
  const send = (eventId: string, message: JSONRPCMessage): Promise<void> => {
    world.activity += 1;
    const snapshot = snapshotOf(message);
    replay.sends.push({ eventId, snapshot });
    // Where the payload says it was stored (its stream and position), for the diagram; the line shows what was sent.
    record(world, { kind: 'send', ...replayFields, eventId: show(eventId), message: show(message), origin: originOf(snapshot) });
    return new Promise<void>((resolve) => {
      replay.held.push(resolve);
    });
  };
  let promise: Promise<string>;
  try {
    promise = Promise.resolve(replay.session.store.replayEventsAfter(replay.cursor, { send }));
  } catch (error) {
    promise = Promise.reject(error);
  }
  promise.then(
    (value) => {
      world.activity += 1;
      replay.state = 'returned';
      replay.returned = value;
      record(world, { kind: 'replayReturned', ...replayFields, value: show(value), sends: replay.sends.length });
    },
    (error: unknown) => {
      world.activity += 1;
      replay.state = 'threw';
      replay.error = firstLine(error);
      record(world, { kind: 'replayThrew', ...replayFields, error: replay.error });
    },
  );
}

function releaseOne(world: StoreWorld, replay: ReplayCall): void {
  const release = replay.held.shift();
  if (release === undefined) throw new Error(`assertion: replay #${replay.index + 1} holds no send`);
  world.activity += 1;
  release();
}

/** True when no call is still running. */
function allSettled(world: StoreWorld): boolean {
  return world.storeCalls.every((call) => call.state !== 'pending') && world.replays.every((replay) => replay.state !== 'pending' && replay.lookup.state !== 'pending');
}

/**
 * Lets every call finish: releases each held send and waits, until all settled or nothing happens for the call
 * timeout (real time: a store doing I/O is slow, not stuck).
 */
export async function drain(world: StoreWorld): Promise<void> {
  for (let round = 0; round < DRAIN_ROUNDS_MAX; round += 1) {
    for (const replay of world.replays) {
      while (replay.held.length > 0) releaseOne(world, replay);
      // A lookup that answered while the checker was busy elsewhere goes on as the transport would.
      if (replay.state === 'lookup' && replay.lookup.state !== 'pending') continueReplay(world, replay);
    }
    if (allSettled(world)) return;
    const before = world.activity;
    if (!(await waitForStore(world, () => world.activity !== before || allSettled(world)))) return;
  }
}

/**
 * Carries out one operation. Starting a call returns nothing without awaiting anything, so consecutive starts overlap;
 * only the operations that yield to the store (open a session, resume, await, release, restart, drain) return a promise.
 */
export function performStoreAction(world: StoreWorld, kindNumber: number, a: number, b: number): Promise<void> | undefined {
  const action = { kind: kindOf(kindNumber), a, b };
  switch (action.kind) {
    case 'openSession':
      return openSession(world, null);
    case 'reuseSessionId':
      return openSession(world, world.sessions[action.a]!);
    case 'openPostStream': {
      const stream = addStream(world, world.sessions[action.a]!, 'post', drawUuid(world));
      record(world, { kind: 'streamOpened', session: stream.session.label, stream: stream.label, streamId: stream.streamId });
      startStore(world, stream, 'priming');
      return undefined;
    }
    case 'store':
      startStore(world, world.streams[action.a]!, 'notification');
      return undefined;
    case 'respond':
      startStore(world, world.streams[action.a]!, 'response');
      return undefined;
    case 'replayOwn': {
      const session = world.sessions[action.a]!;
      const event = cursorsOf(world, session)[action.b]!;
      return startReplay(world, session, event.id, 'own', event);
    }
    case 'replayForeign': {
      const event = latestOf(world, world.sessions[action.b]!)!;
      return startReplay(world, world.sessions[action.a]!, event.id, 'foreign', event);
    }
    case 'replayPreRestart': {
      const session = world.sessions[action.a]!;
      const event = preRestartCursor(world, session)!;
      return startReplay(world, session, event.id, 'pre-restart', event);
    }
    case 'replayForged': {
      const session = world.sessions[action.a]!;
      return startReplay(world, session, forge(world, latestOf(world, session)!.id), 'forged', null);
    }
    case 'replayMalformed': {
      const session = world.sessions[action.a]!;
      return startReplay(world, session, malformed(world), 'malformed', null);
    }
    case 'awaitStore': {
      const call = world.storeCalls[action.a]!;
      return yieldUntil(world, () => call.state !== 'pending');
    }
    case 'awaitReplay':
      return awaitReplay(world, world.replays[action.a]!);
    case 'releaseSend': {
      const replay = world.replays[action.a]!;
      releaseOne(world, replay);
      return yieldUntil(world, () => replay.held.length > 0 || replay.state !== 'pending');
    }
    case 'restart':
      return restart(world);
    case 'drain':
      world.drained = true;
      return drain(world);
  }
}

async function awaitReplay(world: StoreWorld, replay: ReplayCall): Promise<void> {
  await yieldUntil(world, () => replay.held.length > 0 || (replay.state !== 'pending' && replay.lookup.state !== 'pending'));
  if (replay.state === 'lookup' && replay.lookup.state !== 'pending') continueReplay(world, replay);
}

/** Opens the shared instance of the current incarnation (with `shared`). */
export async function openIncarnation(world: StoreWorld): Promise<void> {
  if (!world.settings.shared) return;
  world.sharedStore = await callFactory(world.factory, contextOf(world, null), world.where, world.settings.callTimeoutMs);
  record(world, { kind: 'factory', epoch: world.epoch });
}

async function restart(world: StoreWorld): Promise<void> {
  // The old incarnation finishes what it started, so every call is judged; then its instances are never used again.
  await drain(world);
  world.restarts += 1;
  world.epoch += 1;
  world.sharedStore = null;
  await openIncarnation(world);
  if (!world.settings.durable) return;
  // Durable: storage and sessions outlive the restart. Each live session goes on in the new incarnation with a new
  // instance (the process is new), keeping its ID, its standalone stream and its cursors; its request streams died
  // with their requests.
  for (const session of world.sessions) {
    if (session.epoch !== world.epoch - 1) continue;
    session.epoch = world.epoch;
    session.store = world.settings.shared ? world.sharedStore! : await callFactory(world.factory, contextOf(world, session.id), world.where, world.settings.callTimeoutMs);
    record(world, { kind: 'sessionCarried', session: session.label, sessionId: session.id, epoch: world.epoch });
  }
}
