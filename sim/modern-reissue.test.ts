// A call answered with a JSON body: its result when the body is the call's JSON-RPC response (MCP lets a server
// "return one JSON object" for a POST), else a refusal; no SSE stream, so priming-event does not judge it. And a 2026-07-28 client re-issues a call whose exchange
// broke or was refused once a liveness round: a server that
// answers every tools/call in a form the client does not take as its result (mcp-handler 2.4.0 answers a 2026-07-28
// call with a JSON body) ends the run. Before, each re-issue made a fresh view of the call that the same round offered
// again, and the run never ended (a fuzz over the wire hung there, tens of thousands of requests a minute).

import { describe, expect, it } from 'vitest';
import { referenceModernTarget } from '../targets/reference/reference-modern.target.ts';
import { referenceTarget } from '../targets/reference/reference.target.ts';
import type { HttpRequest, HttpResponse, JsonRpcMessage, Target, TargetRun } from '../targets/target.ts';
import { planWalk, walkChoices } from './choices.ts';
import { resolveConfig } from './config.ts';
import { runSimulation } from './engine.ts';
import { isModernBody, withProvenance } from './tools.ts';

/** Requests the wrapped server may be sent before the test calls the run endless. */
const REQUESTS_MAX = 20_000;

/** What the wrapped server answers a tools/call with, instead of the reference's stream. */
type CallAnswer = (body: JsonRpcMessage, epoch: number, sessionId: string) => JsonRpcMessage;

/** A JSON-RPC error: no result the client can take as its call's. */
const refusal: CallAnswer = (body) => ({ jsonrpc: '2.0', id: body['id'] as number, error: { code: -32603, message: 'no' } });

/** The call's result, as one JSON object (MCP: "return one JSON object"), carrying its provenance as a tool's would. */
const jsonResult: CallAnswer = (body, epoch, sessionId) => {
  const callId = ((body['params'] as { arguments: { callId: string } }).arguments).callId;
  return withProvenance({ jsonrpc: '2.0', id: body['id'] as number, result: { content: [] } }, { epoch, sessionId, callId, k: 1, execution: 1, result: true });
};

/** `base` with every tools/call of the era asked for answered 200 with a JSON body by `answer`, not a stream. */
function answeringCalls(answer: CallAnswer, counter: { requests: number; refused: number; calls: Set<string> }, base: Target = referenceModernTarget, modern = true): Target {
  return {
    ...base,
    name: `${base.name}-json-calls`,
    open(options) {
      const run = base.open(options);
      const wrap = (opened: TargetRun): TargetRun => ({
        ...opened,
        boot(incarnation, host) {
          const instance = opened.boot(incarnation, host);
          // A synchronous run is driven without awaiting: the refusal is a plain value too.
          const handle = (request: HttpRequest): HttpResponse | Promise<HttpResponse> => {
            counter.requests += 1;
            if (counter.requests > REQUESTS_MAX) throw new Error(`more than ${REQUESTS_MAX} requests in one run: the run does not end`);
            const body = request.method === 'POST' ? request.body : null;
            if (body !== null && body['method'] === 'tools/call' && isModernBody(body) === modern) {
              counter.refused += 1;
              counter.calls.add(((body['params'] as { arguments: { callId: string } }).arguments).callId);
              return { status: 200, sessionId: null, streaming: false, body: answer(body, incarnation.epoch, modern ? '' : (request.sessionId ?? '')) };
            }
            return instance.handle(request);
          };
          return new Proxy(instance, {
            get(target, property, receiver) {
              if (property === 'handle') return handle;
              const value: unknown = Reflect.get(target, property, receiver);
              return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
            },
          });
        },
      });
      return run instanceof Promise ? run.then(wrap) : wrap(run);
    },
  };
}

describe('a 2026-07-28 call whose every exchange is refused', () => {
  it('is re-issued once a liveness round, and every run ends (seeds m.1 .. m.30)', async () => {
    let refusedRuns = 0;
    for (let run = 1; run <= 30; run += 1) {
      const counter = { requests: 0, refused: 0, calls: new Set<string>() };
      const config = resolveConfig({ seed: `m.${run}`, protocol: '2026-07-28', stepsMax: 20 });
      const result = await runSimulation(answeringCalls(refusal, counter), config, walkChoices(planWalk(config.seed, config.stepsMax, undefined)), { properties: [] });
      expect(result.steps + result.healSteps).toBeLessThan(200);
      if (counter.refused > 0) refusedRuns += 1;
    }
    // The walks did make calls, every one of them refused.
    expect(refusedRuns).toBeGreaterThan(10);
  });

  it('answered with its result as a JSON body instead: taken as its result, so never re-issued (seeds m.1 .. m.30)', async () => {
    let sent = 0;
    for (let run = 1; run <= 30; run += 1) {
      const counter = { requests: 0, refused: 0, calls: new Set<string>() };
      const config = resolveConfig({ seed: `m.${run}`, protocol: '2026-07-28', stepsMax: 20 });
      await runSimulation(answeringCalls(jsonResult, counter), config, walkChoices(planWalk(config.seed, config.stepsMax, undefined)), { properties: [] });
      // One request a call: the result came back in it. (Taken for a refusal, each would be re-issued in the liveness phase.)
      expect(counter.refused, `seed m.${run}`).toBe(counter.calls.size);
      sent += counter.refused;
    }
    expect(sent).toBeGreaterThan(10);
  });
});

describe('a 2025-11-25 call answered with its result as a JSON body', () => {
  it('is no SSE stream, so priming-event does not judge it (seeds j.1 .. j.30)', async () => {
    let answered = 0;
    for (let run = 1; run <= 30; run += 1) {
      const counter = { requests: 0, refused: 0, calls: new Set<string>() };
      const config = resolveConfig({ seed: `j.${run}`, protocol: '2025-11-25', stepsMax: 20 });
      const result = await runSimulation(answeringCalls(jsonResult, counter, referenceTarget, false), config, walkChoices(planWalk(config.seed, config.stepsMax, undefined)), { properties: ['priming-event'] });
      expect(result.violation, `seed j.${run}`).toBeNull();
      answered += counter.refused;
    }
    expect(answered).toBeGreaterThan(10);
  });
});
