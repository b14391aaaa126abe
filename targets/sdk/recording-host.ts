// A minimal TargetHost for driving a server instance directly in tests and scripts: it records every frame and
// end, runs the simulator's tools (toolStep) for each execution, and draws session IDs from a seeded PRNG.

import seedrandom from 'seedrandom';
import { progressStepsOf, toolStep } from '../../sim/tools.ts';
import type { ExecutionStart, Frame, TargetHost, ToolStep } from '../target.ts';

/** One execution as the host saw it start. */
export interface RecordedExecution extends ExecutionStart {
  readonly epoch: number;
  /** Steps taken so far (the k of the last step). */
  steps: number;
  /** True once the server cancelled it (TargetHost.cancelled). */
  cancelled?: boolean;
}

/** What a recording host has seen, across every incarnation it served. */
export interface Recorder {
  /** One line per event, in report order: the value compared by determinism tests. */
  readonly log: string[];
  /** Executions by number - 1. */
  readonly executions: RecordedExecution[];
  /** The host for the incarnation `epoch`; all incarnations share the log, the execution numbering and the PRNG. */
  hostFor(epoch: number): TargetHost;
  /** Frames reported for `connection`, in order. */
  framesOf(connection: number): Frame[];
  /** True once the server ended `connection`. */
  ended(connection: number): boolean;
}

/** Creates a recorder whose tools send `workProgressSteps` progress notifications for `work`, and none for the others. */
export function createRecorder(options: { seed: string; workProgressSteps: number }): Recorder {
  const random = seedrandom(`${options.seed}/host`);
  const log: string[] = [];
  const executions: RecordedExecution[] = [];
  const frames = new Map<number, Frame[]>();
  const ends = new Set<number>();
  return {
    log,
    executions,
    framesOf: (connection) => frames.get(connection) ?? [],
    ended: (connection) => ends.has(connection),
    hostFor(epoch) {
      return {
        frame(connection, frame) {
          if (ends.has(connection)) throw new Error(`assertion: frame on connection ${connection} after its end`);
          const list = frames.get(connection) ?? [];
          list.push(frame);
          frames.set(connection, list);
          log.push(`frame ${connection} ${JSON.stringify(frame)}`);
        },
        end(connection) {
          if (ends.has(connection)) throw new Error(`assertion: connection ${connection} ended twice`);
          ends.add(connection);
          log.push(`end ${connection}`);
        },
        startExecution(start) {
          executions.push({ ...start, epoch, steps: 0 });
          log.push(`start ${executions.length} ${JSON.stringify(start)}`);
          return executions.length;
        },
        nextStep(execution): ToolStep {
          const recorded = executions[execution - 1];
          if (recorded === undefined) throw new Error(`assertion: nextStep of unknown execution ${execution}`);
          recorded.steps += 1;
          const provenance = { epoch: recorded.epoch, sessionId: recorded.sessionId, callId: recorded.callId, execution: 1, k: recorded.steps };
          return toolStep(provenance, progressStepsOf(recorded.tool, options.workProgressSteps));
        },
        cancelled(execution) {
          const recorded = executions[execution - 1];
          if (recorded === undefined) throw new Error(`assertion: cancelled an unknown execution ${execution}`);
          recorded.cancelled = true;
          log.push(`cancelled ${execution}`);
        },
        random: () => random(),
      };
    },
  };
}
