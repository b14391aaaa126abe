// Figure 7's direct drive: an SDK target's server instance driven without the simulator by a seeded loop of the
// operations a run is made of (a new tool call, a tool step, a cut), in one era: 2026-07-28 calls (no session) or
// 2025-11-25 calls in one session. It measures what the simulator's clients cannot reach yet (they do not negotiate
// revisions): the modern path's cost per operation, beside the legacy path's under the same loop.

import seedrandom from 'seedrandom';
import { callRequest, initializeRequest, INITIALIZED_NOTIFICATION, modernCallRequest } from '../sim/tools.ts';
import { createRecorder } from '../targets/sdk/recording-host.ts';
import type { HttpRequest, ServerInstance, Target, ToolName } from '../targets/target.ts';
import { TOOL_NAMES } from '../targets/target.ts';
import { type Rate, measureRateAsync } from './measure.ts';

/** Operations in one batch; each batch is a fresh run (bounded memory: the recorder keeps a log). */
const BATCH_OPERATIONS = 200;
/** Calls running at once at the most: beyond it the loop advances or cuts instead of calling. */
const RUNNING_MAX = 3;
/** Steps each tool takes (progress notifications, then the result), as the recorder's tools are set up. */
const WORK_PROGRESS_STEPS = 2;
const MODERN_REVISION = '2026-07-28';

/** What one era loop measured. */
export interface EraLoopResult {
  readonly target: string;
  readonly era: 'modern' | 'legacy';
  /** Operations (handle, advance, cut) per second. */
  readonly rate: Rate;
  /** Tool executions started and cancelled over the measured and warm-up batches. */
  readonly executions: number;
  readonly cancelled: number;
}

/** One batch: a fresh run of `target`, `BATCH_OPERATIONS` seeded operations; returns the operations done. */
async function batch(target: Target, era: 'modern' | 'legacy', index: number, totals: { executions: number; cancelled: number }): Promise<number> {
  const seed = `era-loop.${era}.${index}`;
  const random = seedrandom(seed);
  const recorder = createRecorder({ seed, workProgressSteps: WORK_PROGRESS_STEPS });
  const run = await target.open({ seed, windowEventsMax: 16 });
  let operations = 0;
  try {
    const server: ServerInstance = run.boot({ epoch: 1 }, recorder.hostFor(1));
    let connection = 0;
    let requestId = 0;
    let sessionId: string | null = null;
    const open = new Set<number>();
    const send = async (request: Omit<Extract<HttpRequest, { method: 'POST' }>, 'connection'>): Promise<string | null> => {
      connection += 1;
      const response = await server.handle({ ...request, connection });
      if (response.streaming) open.add(connection);
      operations += 1;
      return response.sessionId;
    };
    if (era === 'legacy') {
      requestId += 1;
      sessionId = await send({ method: 'POST', sessionId: null, lastEventId: null, body: initializeRequest(requestId) });
      if (sessionId === null) throw new Error(`assertion: ${target.name} answered the loop's initialize without a session`);
      await send({ method: 'POST', sessionId, lastEventId: null, body: INITIALIZED_NOTIFICATION });
    }
    while (operations < BATCH_OPERATIONS) {
      const running = recorder.executions.flatMap((execution, at) => (execution.cancelled !== true && execution.steps < stepsOf(execution.tool) ? [at + 1] : []));
      for (const done of [...open]) if (recorder.ended(done)) open.delete(done);
      const draw = random();
      if (running.length === 0 || (running.length < RUNNING_MAX && draw < 0.35)) {
        const tool = TOOL_NAMES[Math.floor(random() * TOOL_NAMES.length)] as ToolName;
        requestId += 1;
        const callId = `c${requestId}`;
        if (era === 'modern') await send({ method: 'POST', sessionId: null, lastEventId: null, body: modernCallRequest(requestId, tool, callId), protocolVersion: MODERN_REVISION });
        else await send({ method: 'POST', sessionId, lastEventId: null, body: callRequest(requestId, tool, callId) });
      } else if (draw < 0.9 || open.size === 0) {
        await server.advance(running[Math.floor(random() * running.length)]!);
        operations += 1;
      } else {
        const connections = [...open];
        const cut = connections[Math.floor(random() * connections.length)]!;
        open.delete(cut);
        await server.cut(cut);
        operations += 1;
      }
    }
    await server.dispose();
  } finally {
    await run.close();
  }
  totals.executions += recorder.executions.length;
  totals.cancelled += recorder.executions.filter((execution) => execution.cancelled === true).length;
  return operations;
}

function stepsOf(tool: ToolName): number {
  return tool === 'work' ? WORK_PROGRESS_STEPS + 1 : 1;
}

/** Measures `target` in `era` with the direct-drive loop, after a warm-up. */
export async function measureEraLoop(target: Target, era: 'modern' | 'legacy', options: { warmupMs: number; measureMs: number }): Promise<EraLoopResult> {
  const totals = { executions: 0, cancelled: 0 };
  const rate = await measureRateAsync((index) => batch(target, era, index, totals), options);
  return { target: target.name, era, rate, ...totals };
}
