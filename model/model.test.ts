// The compiled tables the simulator steps must say exactly what the XState machines say: random walks drive
// an XState actor and the table side by side, comparing what each accepts and where each ends up.

import { type AnyStateMachine, createActor } from 'xstate';
import { describe, expect, it } from 'vitest';
import { createPrng } from '../sim/prng.ts';
import {
  MODEL,
  type ModelMachine,
  accepts,
  clientMachine,
  connectionMachine,
  serverMachine,
  sessionMachine,
  step,
  streamMachine,
} from './index.ts';

const SEED = 'model-walks';
const WALKS = 40;
const EVENTS_PER_WALK = 200;

const PAIRS: ReadonlyArray<{ readonly name: keyof typeof MODEL; readonly machine: AnyStateMachine }> = [
  { name: 'stream', machine: streamMachine },
  { name: 'session', machine: sessionMachine },
  { name: 'server', machine: serverMachine },
  { name: 'connection', machine: connectionMachine },
  { name: 'client', machine: clientMachine },
];

/** The (state, event) pairs a walk compared, as "state/event". */
type Coverage = Set<string>;

/**
 * One random walk of `EVENTS_PER_WALK` events over both sides. Every drawn event is asked of both; accepted events
 * are sent to both. A final state ends the actor, so the walk then starts again from the initial state.
 */
function walk(table: ModelMachine, machine: AnyStateMachine, seed: string, coverage: Coverage): void {
  const prng = createPrng(seed);
  let actor = createActor(machine).start();
  let state = table.initial;
  for (let drawn = 0; drawn < EVENTS_PER_WALK; drawn += 1) {
    const snapshot = actor.getSnapshot();
    expect(String(snapshot.value), `${table.id}: state after ${drawn} events of walk ${seed}`).toBe(table.states[state]);
    expect(snapshot.status === 'done', `${table.id}: is ${table.states[state]} final? (walk ${seed})`).toBe(table.final[state]);
    if (table.final[state]) {
      // Nothing leaves a final state: check every event there, then begin a new walk.
      for (let event = 0; event < table.events.length; event += 1) {
        coverage.add(`${table.states[state]}/${table.events[event]}`);
        expect(accepts(table, state, event), `${table.id}: ${table.states[state]} accepts ${table.events[event]}`).toBe(false);
        expect(snapshot.can({ type: table.events[event]! }), `${table.id}: XState can ${table.events[event]} in ${table.states[state]}`).toBe(false);
      }
      actor.stop();
      actor = createActor(machine).start();
      state = table.initial;
      continue;
    }
    const event = prng.below(table.events.length);
    const type = table.events[event]!;
    coverage.add(`${table.states[state]}/${type}`);
    const accepted = accepts(table, state, event);
    expect(accepted, `${table.id}: table accepts ${type} in ${table.states[state]} iff XState can (walk ${seed}, event ${drawn})`).toBe(snapshot.can({ type }));
    if (!accepted) continue;
    actor.send({ type });
    state = step(table, state, event);
  }
  actor.stop();
}

describe(`compiled model tables agree with XState (seed ${SEED}, ${WALKS} walks of ${EVENTS_PER_WALK} events)`, () => {
  for (const { name, machine } of PAIRS) {
    it(`${name}: random walks agree on every accept and every state (seed ${SEED})`, () => {
      const table = MODEL[name] as ModelMachine;
      expect(table.id).toBe(machine.id);
      expect(table.states[table.initial]).toBe(String(createActor(machine).getSnapshot().value));
      const coverage: Coverage = new Set();
      for (let index = 0; index < WALKS; index += 1) walk(table, machine, `${SEED}/${name}/${index}`, coverage);
      // The walks must have asked about every (state, event) pair, or agreement proves little.
      const pairs = table.states.flatMap((state) => table.events.map((event) => `${state}/${event}`));
      expect(pairs.filter((pair) => !coverage.has(pair))).toEqual([]);
    });
  }

  it('every event XState names in a state is an event of the table', () => {
    for (const { name, machine } of PAIRS) {
      const table = MODEL[name] as ModelMachine;
      for (const node of Object.values(machine.root.states)) {
        for (const event of node.ownEvents) expect(table.events, `${name}: ${node.key} --${event}-->`).toContain(event);
      }
      expect(table.states).toEqual(Object.keys(machine.root.states));
    }
  });

  it('step refuses an event its table does not accept', () => {
    const stream = MODEL.stream;
    expect(() => step(stream, stream.state.completed, stream.event.complete)).toThrow(/not accepted in state completed/);
    expect(step(stream, stream.state.open, stream.event.complete)).toBe(stream.state.completed);
  });
});
