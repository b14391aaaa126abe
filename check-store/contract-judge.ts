// The contract's checker: once a run has drained, every call it made is judged against the contract properties.
// Violations are data: the property, the step whose call broke it, and what was expected against what happened.

import { CONTRACT_PROPERTY_NAMES, type ContractPropertyName } from './contract-properties.ts';
import { type ContractViolation, type ContractWorld, type ReplayCall, type StoreCall, type StoredEvent, deepEqual, describeEvent, originOf, show } from './contract-world.ts';

type Report = (property: ContractPropertyName, step: number, explanation: string) => void;

function list(events: readonly StoredEvent[]): string {
  return events.length === 0 ? 'nothing' : events.map((event) => event.call.label).join(', ');
}

function describeCursor(replay: ReplayCall): string {
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

function judgeSettled(world: ContractWorld, report: Report): void {
  for (const call of world.storeCalls) {
    if (call.state === 'pending') report('calls-settle', call.step, `storeEvent of ${call.label} on ${call.stream.label} never settled`);
  }
  for (const replay of world.replays) {
    if (replay.lookup.state === 'pending') {
      report('calls-settle', replay.step, `getStreamIdForEventId(${show(replay.cursor)}) of session ${replay.session.label} never settled`);
    } else if (replay.state === 'pending') {
      report('calls-settle', replay.step, `replayEventsAfter(${show(replay.cursor)}) of session ${replay.session.label} never settled, though each of its ${replay.sends.length} sends was released`);
    }
  }
}

function judgeIds(world: ContractWorld, report: Report): void {
  // Uniqueness is within a session (MCP); a session ID an earlier incarnation issued is the same session to a client
  // holding its old cursors. Across sessions a repeat is advice only (a per-session counter is correct).
  const owners = new Map<string, StoreCall>();
  let acrossReported = false;
  const resolved = world.storeCalls.filter((call) => call.state === 'resolved').sort((left, right) => (left.event?.order ?? Infinity) - (right.event?.order ?? Infinity));
  for (const call of world.storeCalls) {
    if (call.state === 'rejected') {
      report('event-ids-unique', call.step, `storeEvent of ${call.label} on the open stream ${call.stream.label} rejected: ${call.error} (the transport would fail the message)`);
    }
  }
  const bySession = new Map<string, Map<string, StoreCall>>();
  for (const call of resolved) {
    if (typeof call.value !== 'string' || call.value === '') {
      report('event-ids-unique', call.step, `storeEvent of ${call.label} resolved to ${show(call.value)}, not a non-empty string`);
      continue;
    }
    const sessionId = call.stream.session.id;
    const mine = bySession.get(sessionId) ?? new Map<string, StoreCall>();
    bySession.set(sessionId, mine);
    const same = mine.get(call.value);
    if (same !== undefined) {
      const reused = same.stream.session !== call.stream.session ? ` (session ${same.stream.session.label} of incarnation ${same.stream.session.epoch} had the same session ID)` : '';
      report('event-ids-unique', call.step, `storeEvent of ${call.label} resolved to ${show(call.value)}, the ID storeEvent of ${same.label} already got in the same session${reused}`);
      continue;
    }
    mine.set(call.value, call);
    const other = owners.get(call.value);
    if (other === undefined) {
      owners.set(call.value, call);
    } else if (!acrossReported) {
      acrossReported = true;
      report(
        'event-ids-unique-across-sessions',
        call.step,
        `storeEvent of ${call.label} resolved to ${show(call.value)}, the ID ${other.label} of session ${other.stream.session.label} got: unique within each session, as MCP requires, but not across sessions`,
      );
    }
  }
}

/** A send of a replay, attributed by the origin its payload carries (never by its ID alone). */
interface Attributed {
  /** The storeEvent call whose message was sent; null when neither its payload nor its ID names one. */
  readonly call: StoreCall | null;
  /** How it was attributed: by the payload's origin, or (a message without one: a priming event) by ID. */
  readonly by: 'origin' | 'id';
}

/**
 * Attributes each send: by the origin in its payload (the checker puts session, stream and position in every message
 * it stores); a message without one (the priming event {}) by its ID, looked up first among the IDs the presenting
 * session got, then among all.
 */
function attribute(world: ContractWorld, replay: ReplayCall): Attributed[] {
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

function labelOf(sent: Attributed, replay: ReplayCall, index: number): string {
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

function judgeReplay(world: ContractWorld, given: ReplayCall, report: Report): void {
  if (given.state === 'pending' || given.state === 'lookup') return;
  const replay = meant(given);
  const presenter = replay.session;
  const sent = attribute(world, replay);
  const foreign = sent.filter((item): item is Attributed & { call: StoreCall } => item.call !== null && item.call.stream.session.id !== presenter.id);
  if (foreign.length > 0) {
    const owners = [...new Set(foreign.map((item) => item.call.stream.session.label))].join(', ');
    report(
      'session-isolation',
      replay.step,
      `${describeCursor(replay)}; the store sent ${foreign.map((item) => item.call.label).join(', ')}, stored by session ${owners} (as the payload's origin shows)${world.config.shared ? ' (one shared store cannot tell sessions apart)' : ''}`,
    );
    return;
  }
  if (replay.kind !== 'own') {
    // A forged or malformed string that later became a real ID proves nothing.
    if ((replay.kind === 'forged' || replay.kind === 'malformed') && world.eventsById.has(replay.cursor)) return;
    if (replay.sends.length > 0) {
      const named = sent.map((item, index) => labelOf(item, replay, index)).join(', ');
      report('unknown-cursor-yields-nothing', replay.step, `${describeCursor(replay)}; the store sent ${replay.sends.length} event(s): ${named}`);
      return;
    }
    if (replay.state === 'returned') {
      const stream = presenter.streams.find((candidate) => candidate.streamId === replay.returned && candidate.calls.length > 0);
      if (stream !== undefined) {
        report(
          'unknown-cursor-yields-nothing',
          replay.step,
          `${describeCursor(replay)}; replayEventsAfter sent nothing but returned ${show(replay.returned)}, the ID of ${stream.label}: the transport hands that stream's later events to this connection`,
        );
      }
    }
    return;
  }
  judgeOwnReplay(world, replay, sent, report);
}

function judgeOwnReplay(world: ContractWorld, replay: ReplayCall, sent: readonly Attributed[], report: Report): void {
  const cursor = replay.source!;
  const stream = cursor.stream;
  const before = stream.resolved.filter((event) => event.order > cursor.order && event.order < replay.resolvedBefore);
  const during = stream.resolved.filter((event) => event.order >= replay.resolvedBefore);
  // A request stream of an earlier incarnation (a durable store's) lost its request: refusing to resume it is fine.
  const completed = (stream.responseCall !== null && stream.responseCall.tick < replay.tick) || (stream.kind === 'post' && stream.epoch < replay.session.epoch);
  const what = describeCursor(replay);
  const refused = refusal(replay);
  if (refused !== null) {
    // A cursor whose storeEvent had not resolved when the replay was called may not be visible to the store yet.
    if (completed || before.length > world.config.windowEventsMax || cursor.order >= replay.resolvedBefore) return;
    report(
      'resumes-within-window',
      replay.step,
      `${what}; ${refused}, though ${stream.label} is open and only ${before.length} event(s) follow the cursor (${list(before)}), within the ${world.config.windowEventsMax} the checker expects a store to keep (context.windowEventsMax)`,
    );
    return;
  }
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
    const skipped = sentOwn.length < before.length && sentOwn.every((event, index) => event === before[before.length - sentOwn.length + index]);
    if (skipped && replay.returned === stream.streamId) {
      const missing = before.slice(0, before.length - sentOwn.length);
      report(
        'no-silent-skip',
        replay.step,
        `${what}; the replay sent ${list(sentOwn)} and returned ${show(replay.returned)} without refusing, skipping ${list(missing)} (${missing.length} of the ${before.length} event(s) stored after the cursor)`,
      );
      return;
    }
    problems.push(`sent ${list(sentOwn)} where ${list(before)} was due${during.length > 0 ? ` (then possibly ${list(during)}, stored during the replay)` : ''}`);
  }
  if (problems.length === 0 && replay.returned !== stream.streamId) {
    problems.push(`returned ${show(replay.returned)} instead of the stream's ID ${show(stream.streamId)}: the transport registers the connection under the returned ID`);
  }
  if (problems.length === 0 && replay.lookup.state === 'resolved' && replay.lookup.value !== stream.streamId) {
    problems.push(`getStreamIdForEventId named ${show(replay.lookup.value)} instead of ${show(stream.streamId)}`);
  }
  if (problems.length > 0) report('replay-exact', replay.step, `${what}; the store ${problems.slice(0, 3).join('; ')}${problems.length > 3 ? ` (and ${problems.length - 3} more)` : ''}`);
}

/** Judges a drained run: every violation found, in property order, then by step. */
export function judgeContract(world: ContractWorld): ContractViolation[] {
  const violations: ContractViolation[] = [];
  const report: Report = (property, step, explanation) => {
    violations.push({ property, step, explanation });
  };
  judgeSettled(world, report);
  judgeIds(world, report);
  for (const replay of world.replays) judgeReplay(world, replay, report);
  const rank = (name: ContractPropertyName) => CONTRACT_PROPERTY_NAMES.indexOf(name);
  return violations.sort((left, right) => rank(left.property) - rank(right.property) || left.step - right.step);
}
