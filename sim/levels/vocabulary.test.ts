// faultActionsWithout: a recorded run's actions with steps deleted, what the later steps name renumbered as a run without
// those steps numbers it (the shrinker's deletion by meaning follows these lines).

import { describe, expect, it } from 'vitest';
import type { StepRecord, TraceStep } from './records.ts';
import { faultActions, faultActionsWithout } from './vocabulary.ts';

const step = (action: StepRecord, observations: StepRecord[] = [], phase: TraceStep['phase'] = 'faults'): TraceStep => ({ choice: 0, phase, action, observations });
const request = (connection: number, client: number, call?: string): StepRecord => ({ kind: 'request', form: call === undefined ? 'initialize' : 'call', method: 'POST', connection, client, ...(call === undefined ? {} : { call }) });
const execution = (call: string, number: number): StepRecord => ({ kind: 'execution', tool: 'read', call, execution: number, session: 's1' });

/** Two clients initialize (connections 0–3), each calls read (c1 on #4, c2 on #5), then later steps name them. */
function run(): TraceStep[] {
  return [
    step({ kind: 'initialize', client: 1 }, [request(0, 1), request(1, 1)]),
    step({ kind: 'initialize', client: 2 }, [request(2, 2), request(3, 2)]),
    step({ kind: 'call', client: 1, tool: 'read' }, [request(4, 1, 'c1'), execution('c1', 1)]),
    step({ kind: 'call', client: 2, tool: 'read' }, [request(5, 2, 'c2'), execution('c2', 2)]),
    step({ kind: 'serverClose', connection: 5, client: 2 }),
    step({ kind: 'advance', call: 'c2', tool: 'read', execution: 2 }),
    step({ kind: 'cut', connection: 4, client: 1 }),
    step({ kind: 'resumeLatest', client: 2, call: 'c2' }, [], 'liveness'),
  ];
}

describe('faultActionsWithout', () => {
  it('deleting a step renumbers the connections, calls and executions made after it', () => {
    const steps = run();
    // Without client 1's call: c2 becomes c1, execution 2 becomes 1, connection #5 becomes #4; #4 itself was made
    // by the deleted step, and stays as it was named (nothing in the shorter run is that connection).
    expect(faultActionsWithout(steps, null, 2, 1)).toEqual(
      faultActions([
        step({ kind: 'initialize', client: 1 }),
        step({ kind: 'initialize', client: 2 }),
        step({ kind: 'call', client: 2, tool: 'read' }),
        step({ kind: 'serverClose', connection: 4, client: 2 }),
        step({ kind: 'advance', call: 'c1', tool: 'read', execution: 1 }),
        step({ kind: 'cut', connection: 4, client: 1 }),
      ]),
    );
  });

  it('deleting a run of steps renumbers by everything the run made', () => {
    // Without client 2's initialize and client 1's call: connections #2–#4 gone, so #5 is #2.
    expect(faultActionsWithout(run(), null, 1, 2)).toEqual(
      faultActions([
        step({ kind: 'initialize', client: 1 }),
        step({ kind: 'call', client: 2, tool: 'read' }),
        step({ kind: 'serverClose', connection: 2, client: 2 }),
        step({ kind: 'advance', call: 'c1', tool: 'read', execution: 1 }),
        step({ kind: 'cut', connection: 4, client: 1 }),
      ]),
    );
  });

  it('steps before the deletion, and a deletion of nothing made, leave every line as it was', () => {
    const steps = run();
    const all = faultActions(steps);
    expect(faultActionsWithout(steps, null, 6, 1)).toEqual(all.slice(0, 6));
    // The serverClose step made nothing: the later lines are the same lines.
    expect(faultActionsWithout(steps, null, 4, 1)).toEqual([...all.slice(0, 4), ...all.slice(5)]);
    // The liveness phase's steps are not the choices' and never among the lines.
    expect(all).toHaveLength(7);
  });
});
