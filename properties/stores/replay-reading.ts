// One replay as the store level's properties read it: the cursor as the presenting session means it, each send
// attributed by the origin its payload carries, and, for the session's own cursor, what was due against what came.
// Read once per replay of a drained run; several properties judge the same reading.

import type { ReplayCall, StoreCall, StoredEvent, StoreWorld } from '../../sim/levels/store-world.ts';
import { deepEqual, describeEvent, originOf, show } from '../../sim/levels/store-world.ts';

/** A send of a replay, attributed by the origin its payload carries (never by its ID alone). */
export interface Attributed {
  /** The storeEvent call whose message was sent; null when neither its payload nor its ID names one. */
  readonly call: StoreCall | null;
  /** How it was attributed: by the payload's origin, or (a message without one: a priming event) by ID. */
  readonly by: 'origin' | 'id';
}

/** What a replay of the session's own cursor came to, when it was not refused. */
export interface OwnReplay {
  /** The events stored on the cursor's stream after it, before the replay was called. */
  readonly before: readonly StoredEvent[];
  /** The replay sent a later part of `before` only and returned the stream's ID without refusing: the events skipped. */
  readonly skipped: readonly StoredEvent[] | null;
  /** Everything else it did wrong (an empty list when it was exact). */
  readonly problems: readonly string[];
}

/** A settled replay, read. */
export interface ReplayReading {
  /** The replay as the presenting session means it (a foreign cursor equal to an ID of its own is its own). */
  readonly replay: ReplayCall;
  readonly sent: readonly Attributed[];
  /** The sends of events another session stored. */
  readonly foreign: ReadonlyArray<Attributed & { readonly call: StoreCall }>;
  /** How the store refused it (a lookup that named nothing, a throw), or null when it did not. */
  readonly refused: string | null;
  /** For the session's own cursor, not refused: what was due and what came; else null. */
  readonly own: OwnReplay | null;
}

/** The labels of events, or "nothing". */
export function list(events: readonly StoredEvent[]): string {
  return events.length === 0 ? 'nothing' : events.map((event) => event.call.label).join(', ');
}

/** The cursor a replay presented, as explanations say it. */
export function describeCursor(replay: ReplayCall): string {
  const where = `session ${replay.session.label}`;
  switch (replay.kind) {
    case 'own':
      return `${where} resumed after its own cursor ${describeEvent(replay.source!)}`;
    case 'foreign':
      return `${where} presented session ${replay.source!.stream.session.label}'s cursor ${describeEvent(replay.source!)}`;
    case 'pre-restart':
      return `${where} (incarnation ${replay.session.epoch}) presented ${describeEvent(replay.source!)}, issued in incarnation ${replay.source!.stream.session.epoch}`;
    case 'forged':
      return `${where} presented the forged cursor ${show(replay.cursor)}`;
    case 'malformed':
      return `${where} presented ${show(replay.cursor)}, which is no event ID`;
  }
}

function refusal(replay: ReplayCall): string | null {
  if (replay.state === 'refused') {
    return replay.lookup.state === 'rejected' ? `getStreamIdForEventId rejected (${replay.lookup.error})` : `getStreamIdForEventId returned ${show(replay.lookup.state === 'resolved' ? replay.lookup.value : undefined)}`;
  }
  if (replay.state === 'threw') return `replayEventsAfter threw (${replay.error})`;
  return null;
}

/**
 * Attributes each send: by the origin in its payload (the level puts session, stream and position in every message it
 * stores); a message without one (the priming event {}) by its ID, looked up first among the IDs the presenting
 * session got, then among all.
 */
function attribute(world: StoreWorld, replay: ReplayCall): Attributed[] {
  const ownIds = new Map<string, StoreCall>();
  for (const call of world.storeCalls) {
    if (call.state === 'resolved' && typeof call.value === 'string' && call.stream.session.id === replay.session.id && !ownIds.has(call.value)) ownIds.set(call.value, call);
  }
  return replay.sends.map((sent) => {
    const origin = originOf(sent.snapshot);
    if (origin !== null) return { call: world.callsByOrigin.get(origin) ?? null, by: 'origin' };
    if (typeof sent.eventId !== 'string') return { call: null, by: 'id' };
    return { call: ownIds.get(sent.eventId) ?? world.eventsById.get(sent.eventId)?.call ?? null, by: 'id' };
  });
}

/** How a send is named: its call's label, or the ID it came under. */
export function labelOf(sent: Attributed, replay: ReplayCall, index: number): string {
  return sent.call === null ? show(replay.sends[index]!.eventId) : sent.call.label;
}

/**
 * The replay as the presenting session means it: a foreign, forged or pre-restart cursor equal to an ID the session
 * itself got (from a storeEvent started before the replay, possibly resolved after it) is the session's own cursor.
 */
function meant(replay: ReplayCall): ReplayCall {
  if (replay.kind === 'own') return replay;
  for (const stream of replay.session.streams) {
    // Only an ID whose storeEvent had started when the replay was called: a later one was not the session's yet.
    const own = stream.resolved.find((event) => event.id === replay.cursor && event.call.tick < replay.tick);
    if (own !== undefined) return { ...replay, kind: 'own', source: own };
  }
  return replay;
}

/** What a replay of the session's own cursor, not refused, sent against what was due. */
function readOwn(replay: ReplayCall, sent: readonly Attributed[]): OwnReplay {
  const cursor = replay.source!;
  const stream = cursor.stream;
  const before = stream.resolved.filter((event) => event.order > cursor.order && event.order < replay.resolvedBefore);
  const during = stream.resolved.filter((event) => event.order >= replay.resolvedBefore);
  const problems: string[] = [];
  const sentEvents: Array<StoredEvent | null> = sent.map((item) => item.call?.event ?? null);
  sent.forEach((item, index) => {
    const { eventId, snapshot } = replay.sends[index]!;
    const call = item.call;
    if (call === null) problems.push(`sent ${show(eventId)} ${show(snapshot)}, which no storeEvent call stored`);
    else if (call.stream !== stream) problems.push(`sent ${call.label}${call.event === null ? '' : ` (id ${show(call.event.id)})`}, an event of ${call.stream.label}`);
    else if (!deepEqual(snapshot, call.snapshot)) problems.push(`sent ${call.label} with the payload ${show(snapshot)}, stored as ${show(call.snapshot)}`);
    else if (call.event !== null && eventId !== call.event.id) {
      problems.push(`sent ${call.label} under the ID ${show(eventId)}, though its storeEvent returned ${show(call.event.id)}: the client's next cursor names another position`);
    }
  });
  const sentOwn = sentEvents.filter((event): event is StoredEvent => event !== null && event.stream === stream);
  const expectedPrefix = [...before, ...during];
  const exact = sentOwn.length >= before.length && sentOwn.length === sentEvents.length && sentOwn.every((event, index) => event === expectedPrefix[index]);
  if (problems.length === 0 && !exact) {
    const skipping = sentOwn.length < before.length && sentOwn.every((event, index) => event === before[before.length - sentOwn.length + index]);
    if (skipping && replay.returned === stream.streamId) return { before, skipped: before.slice(0, before.length - sentOwn.length), problems: [] };
    problems.push(`sent ${list(sentOwn)} where ${list(before)} was due${during.length > 0 ? ` (then possibly ${list(during)}, stored during the replay)` : ''}`);
  }
  if (problems.length === 0 && replay.returned !== stream.streamId) {
    problems.push(`returned ${show(replay.returned)} instead of the stream's ID ${show(stream.streamId)}: the transport registers the connection under the returned ID`);
  }
  if (problems.length === 0 && replay.lookup.state === 'resolved' && replay.lookup.value !== stream.streamId) {
    problems.push(`getStreamIdForEventId named ${show(replay.lookup.value)} instead of ${show(stream.streamId)}`);
  }
  return { before, skipped: null, problems };
}

/** Reads every replay of a drained run that settled (one still pending is judged by calls-settle alone). */
export function readReplays(world: StoreWorld): ReplayReading[] {
  const readings: ReplayReading[] = [];
  for (const given of world.replays) {
    if (given.state === 'pending' || given.state === 'lookup') continue;
    const replay = meant(given);
    const sent = attribute(world, replay);
    const foreign = sent.filter((item): item is Attributed & { call: StoreCall } => item.call !== null && item.call.stream.session.id !== replay.session.id);
    const refused = refusal(replay);
    readings.push({ replay, sent, foreign, refused, own: replay.kind === 'own' && refused === null && foreign.length === 0 ? readOwn(replay, sent) : null });
  }
  return readings;
}
