// Figure 2: what one model transition costs, three ways, on each machine of model/index.ts: XState 5.33's public
// pure `transition(machine, snapshot, event)`, an actor's `send`, and the compiled table's `step()` the engine
// uses. All three replay the same event sequence (a random walk over accepted events, restarting from the
// initial state whenever a final state is reached), so they do the same transitions.

import { type AnyStateMachine, createActor, getInitialSnapshot, transition } from 'xstate';
import { MODEL, type ModelMachine, clientMachine, connectionMachine, serverMachine, sessionMachine, step, streamMachine } from '../model/index.ts';
import { createPrng } from '../sim/prng.ts';
import { measureRate } from './measure.ts';

/** The cost of one machine's transitions, three ways. */
export interface ModelCost {
  readonly machine: string;
  readonly states: number;
  readonly events: number;
  /** Transitions per second of XState's pure `transition()`. */
  readonly pureTransitionPerSecond: number;
  /** Transitions per second of `actor.send()` (a new actor started whenever the walk restarts). */
  readonly actorSendPerSecond: number;
  /** Actors created, started and stopped per second (what a restart of the walk costs the actor way). */
  readonly actorCreatePerSecond: number;
  /** Restarts per transition in the walk (machines with final states reach them fast: stream, connection). */
  readonly restartsPerTransition: number;
  /** Transitions per second of the compiled table's `step()`. */
  readonly tableStepPerSecond: number;
}

/** Length of the replayed event sequence; the walk restarts at a final state (marked by -1). */
const WALK_LENGTH = 4096;

/** A walk over accepted events of a compiled machine: event indices, with -1 where the walk restarts. */
function walkOf(compiled: ModelMachine, seed: string): Int32Array {
  const prng = createPrng(seed);
  const walk = new Int32Array(WALK_LENGTH);
  let state = compiled.initial;
  const eventCount = compiled.events.length;
  for (let index = 0; index < WALK_LENGTH; index += 1) {
    const accepted: number[] = [];
    for (let event = 0; event < eventCount; event += 1) if (compiled.next[state * eventCount + event]! >= 0) accepted.push(event);
    if (accepted.length === 0 || compiled.final[state] === true) {
      walk[index] = -1;
      state = compiled.initial;
      continue;
    }
    const event = accepted[prng.below(accepted.length)]!;
    walk[index] = event;
    state = compiled.next[state * eventCount + event]!;
  }
  return walk;
}

function transitionsIn(walk: Int32Array): number {
  let count = 0;
  for (const event of walk) if (event >= 0) count += 1;
  return count;
}

function restartsIn(walk: Int32Array): number {
  return walk.length - transitionsIn(walk);
}

/** Measures one machine three ways. */
export function measureModelCost(
  name: string,
  machine: AnyStateMachine,
  compiled: ModelMachine,
  options: { warmupMs: number; measureMs: number },
): ModelCost {
  const walk = walkOf(compiled, `bench/model/${name}`);
  const perWalk = transitionsIn(walk);
  const eventObjects = compiled.events.map((type) => ({ type }));

  const initialSnapshot = getInitialSnapshot(machine);
  const pure = measureRate(
    () => {
      let snapshot = initialSnapshot;
      for (const event of walk) {
        if (event < 0) {
          snapshot = initialSnapshot;
          continue;
        }
        [snapshot] = transition(machine, snapshot, eventObjects[event]!);
      }
      return perWalk;
    },
    options,
  );

  const actor = measureRate(
    () => {
      let running = createActor(machine).start();
      for (const event of walk) {
        if (event < 0) {
          running.stop();
          running = createActor(machine).start();
          continue;
        }
        running.send(eventObjects[event]!);
      }
      running.stop();
      return perWalk;
    },
    options,
  );

  const creations = 64;
  const create = measureRate(
    () => {
      for (let index = 0; index < creations; index += 1) createActor(machine).start().stop();
      return creations;
    },
    options,
  );

  let sink = 0;
  const table = measureRate(
    () => {
      let state = compiled.initial;
      for (const event of walk) {
        if (event < 0) {
          state = compiled.initial;
          continue;
        }
        state = step(compiled, state, event);
      }
      sink += state;
      return perWalk;
    },
    options,
  );
  if (sink < 0) throw new Error('unreachable: keeps the table loop from being optimised away');

  return {
    machine: name,
    states: compiled.states.length,
    events: compiled.events.length,
    pureTransitionPerSecond: pure.perSecond,
    actorSendPerSecond: actor.perSecond,
    actorCreatePerSecond: create.perSecond,
    restartsPerTransition: restartsIn(walk) / perWalk,
    tableStepPerSecond: table.perSecond,
  };
}

/** The model's machines, each with its compiled table. */
export const MODEL_MACHINES: readonly { readonly name: string; readonly machine: AnyStateMachine; readonly compiled: ModelMachine }[] = [
  { name: 'stream', machine: streamMachine, compiled: MODEL.stream },
  { name: 'session', machine: sessionMachine, compiled: MODEL.session },
  { name: 'server', machine: serverMachine, compiled: MODEL.server },
  { name: 'connection', machine: connectionMachine, compiled: MODEL.connection },
  { name: 'client', machine: clientMachine, compiled: MODEL.client },
];

/** Measures every machine of the model. */
export function measureModel(options: { warmupMs: number; measureMs: number }): ModelCost[] {
  return MODEL_MACHINES.map(({ name, machine, compiled }) => measureModelCost(name, machine, compiled, options));
}
