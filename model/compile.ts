// Compiles a flat, context-free XState machine into a transition table once, so the simulator's hot loop
// steps it by array lookup (XState's pure `transition` builds an actor system per call: ~10x slower).

import { type AnyStateMachine, transition } from 'xstate';

/** A machine as a table: `next[state * events.length + event]` is the next state, or -1 when not accepted. */
export interface CompiledMachine<S extends string, E extends string> {
  readonly id: string;
  readonly states: readonly S[];
  readonly events: readonly E[];
  readonly initial: number;
  readonly next: Int8Array;
  readonly final: readonly boolean[];
  /** Index of a state or event by name. */
  readonly state: Readonly<Record<S, number>>;
  readonly event: Readonly<Record<E, number>>;
}

/** The state and event names of a flat machine, in declaration order. */
function namesOf(machine: AnyStateMachine): { states: string[]; events: string[] } {
  const states = Object.keys(machine.root.states);
  const events: string[] = [];
  for (const name of states) {
    const node = machine.root.states[name];
    if (node === undefined) continue;
    if (Object.keys(node.states).length > 0) throw new Error(`machine ${machine.id}: state ${name} is nested; only flat machines compile`);
    for (const event of node.ownEvents) if (!events.includes(event)) events.push(event);
  }
  return { states, events };
}

/** Builds the table by asking XState itself for every (state, event) pair. */
export function compileMachine<S extends string, E extends string>(machine: AnyStateMachine): CompiledMachine<S, E> {
  const { states, events } = namesOf(machine);
  if (states.length > 127) throw new Error(`machine ${machine.id} has too many states for an Int8Array table`);
  const next = new Int8Array(states.length * events.length).fill(-1);
  states.forEach((stateName, s) => {
    const snapshot = machine.resolveState({ value: stateName, context: {} });
    events.forEach((eventName, e) => {
      if (!snapshot.can({ type: eventName })) return;
      const [after] = transition(machine, snapshot, { type: eventName });
      const target = states.indexOf(String(after.value));
      if (target < 0) throw new Error(`machine ${machine.id}: ${stateName} --${eventName}--> unknown state ${String(after.value)}`);
      next[s * events.length + e] = target;
    });
  });
  const initialValue = String(machine.getInitialSnapshot(null as never).value);
  return {
    id: machine.id,
    states: states as S[],
    events: events as E[],
    initial: states.indexOf(initialValue),
    next,
    final: states.map((name) => machine.root.states[name]?.type === 'final'),
    state: Object.fromEntries(states.map((name, index) => [name, index])) as Record<S, number>,
    event: Object.fromEntries(events.map((name, index) => [name, index])) as Record<E, number>,
  };
}

/** True when the machine accepts `event` in `state`. */
export function accepts<S extends string, E extends string>(machine: CompiledMachine<S, E>, state: number, event: number): boolean {
  return machine.next[state * machine.events.length + event]! >= 0;
}

/** Steps the machine; an event it does not accept is a bug in the simulator, not in the target. */
export function step<S extends string, E extends string>(machine: CompiledMachine<S, E>, state: number, event: number): number {
  const next = machine.next[state * machine.events.length + event]!;
  if (next < 0) {
    throw new Error(`model ${machine.id}: event ${machine.events[event]} is not accepted in state ${machine.states[state]}`);
  }
  return next;
}
