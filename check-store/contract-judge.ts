// The contract's checker: once a run has drained, every call it made is judged against the contract properties.
// Violations are data: the property, the step whose call broke it, and what was expected against what happened.

import { CONTRACT_PROPERTY_NAMES, type ContractPropertyName } from './contract-properties.ts';
import { type ContractViolation, type ContractWorld, type ReplayCall, type StoredEvent, deepEqual, describeEvent, show } from './contract-world.ts';

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
  const owners = new Map<string, string>();
  const resolved = world.storeCalls.filter((call) => call.state === 'resolved').sort((left, right) => (left.event?.order ?? Infinity) - (right.event?.order ?? Infinity));
  for (const call of world.storeCalls) {
    if (call.state === 'rejected') {
      report('event-ids-unique', call.step, `storeEvent of ${call.label} on the open stream ${call.stream.label} rejected: ${call.error} (the transport would fail the message)`);
    }
  }
  for (const call of resolved) {
    if (typeof call.value !== 'string' || call.value === '') {
      report('event-ids-unique', call.step, `storeEvent of ${call.label} resolved to ${show(call.value)}, not a non-empty string`);
      continue;
    }
    const owner = owners.get(call.value);
    if (owner !== undefined) {
      report('event-ids-unique', call.step, `storeEvent of ${call.label} resolved to ${show(call.value)}, the ID storeEvent of ${owner} already got`);
    } else {
      owners.set(call.value, call.label);
    }
  }
}

/** The events a replay sent that were stored by the sessions of `filter`. */
function sentEvents(world: ContractWorld, replay: ReplayCall): Array<StoredEvent | null> {
  return replay.sends.map((sent) => (typeof sent.eventId === 'string' ? (world.eventsById.get(sent.eventId) ?? null) : null));
}

function judgeReplay(world: ContractWorld, replay: ReplayCall, report: Report): void {
  if (replay.state === 'pending' || replay.state === 'lookup') return;
  const presenter = replay.session;
  const sent = sentEvents(world, replay);
  const foreign = sent.filter((event): event is StoredEvent => event !== null && event.stream.session !== presenter && event.stream.session.epoch === presenter.epoch);
  if (foreign.length > 0) {
    const owners = [...new Set(foreign.map((event) => event.stream.session.label))].join(', ');
    report(
      'session-isolation',
      replay.step,
      `${describeCursor(replay)}; the store sent ${list(foreign)}, stored by session ${owners}${world.config.shared ? ' (one shared store cannot tell sessions apart)' : ''}`,
    );
    return;
  }
  if (replay.kind !== 'own') {
    // A forged or malformed string that later became a real ID proves nothing.
    if ((replay.kind === 'forged' || replay.kind === 'malformed') && world.eventsById.has(replay.cursor)) return;
    if (replay.sends.length > 0) {
      const named = sent.map((event, index) => (event === null ? show(replay.sends[index]!.eventId) : event.call.label)).join(', ');
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

function judgeOwnReplay(world: ContractWorld, replay: ReplayCall, sent: ReadonlyArray<StoredEvent | null>, report: Report): void {
  const cursor = replay.source!;
  const stream = cursor.stream;
  const before = stream.resolved.filter((event) => event.order > cursor.order && event.order < replay.resolvedBefore);
  const during = stream.resolved.filter((event) => event.order >= replay.resolvedBefore);
  const completed = stream.responseCall !== null && stream.responseCall.tick < replay.tick;
  const what = describeCursor(replay);
  const refused = refusal(replay);
  if (refused !== null) {
    if (completed || before.length > world.config.windowEventsMax) return;
    report(
      'replay-exact',
      replay.step,
      `${what}; ${refused}, though ${stream.label} is open and only ${before.length} event(s) follow the cursor (${list(before)}), within the ${world.config.windowEventsMax} the checker expects a store to keep (context.windowEventsMax)`,
    );
    return;
  }
  const problems: string[] = [];
  sent.forEach((event, index) => {
    const eventId = replay.sends[index]!.eventId;
    if (event === null) problems.push(`sent ${show(eventId)}, an ID no storeEvent call returned`);
    else if (event.stream !== stream) problems.push(`sent ${describeEvent(event)}, an event of ${event.stream.label}`);
    else if (!deepEqual(replay.sends[index]!.snapshot, event.call.snapshot)) {
      problems.push(`sent ${event.call.label} with the payload ${show(replay.sends[index]!.snapshot)}, stored as ${show(event.call.snapshot)}`);
    }
  });
  const sentOwn = sent.filter((event): event is StoredEvent => event !== null && event.stream === stream);
  const expectedPrefix = [...before, ...during];
  const exact = sentOwn.length >= before.length && sentOwn.length === sent.length && sentOwn.every((event, index) => event === expectedPrefix[index]);
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
  if (problems.length > 0) report('replay-exact', replay.step, `${what}; the store ${problems.slice(0, 3).join('; ')}`);
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
