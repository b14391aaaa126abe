// A call answered with a JSON body: its result when the body is the call's JSON-RPC response (MCP lets a server
// "return one JSON object" for a POST), else a refusal; no SSE stream, so priming-event does not judge it. And a
// 2026-07-28 client re-issues a call whose exchange broke or was refused once a liveness round: a server that answers
// every tools/call in a form the client does not take as its result (mcp-handler 2.4.0 answers a 2026-07-28 call with
// a JSON body) ends the run. Before, each re-issue made a fresh view of the call that the same round offered again,
// and the run never ended (a fuzz over the wire hung there, tens of thousands of requests a minute).

import { describe, expect, it } from 'vitest';
import { referenceModernTarget } from '../targets/reference/reference-modern.target.ts';
import { referenceTarget } from '../targets/reference/reference.target.ts';
import type { HttpRequest, HttpResponse, JsonRpcMessage, Target, TargetRun } from '../targets/target.ts';
import { planWalk, walkChoices } from './choices.ts';
import { resolveConfig } from './config.ts';
import { type RunResult, runSimulation } from './engine.ts';
import type { PropertyName } from '../properties/names.ts';
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
function answeringCalls(answer: CallAnswer, counter: Counter, base: Target, modern: boolean): Target {
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

type Counter = { requests: number; refused: number; calls: Set<string> };

/**
 * Runs seeds `PREFIX.1` .. `PREFIX.30` (20 steps, clients speaking `protocol`) of `base` with its tools/calls of that
 * era answered by `answer`; `each` sees every run's result and what the server was sent. Returns the calls answered so.
 */
async function eachSeed(
  prefix: string,
  protocol: '2026-07-28' | '2025-11-25',
  answer: CallAnswer,
  properties: readonly PropertyName[],
  each: (result: RunResult, counter: Counter, seed: string) => void,
): Promise<number> {
  const modern = protocol === '2026-07-28';
  let answered = 0;
  for (let run = 1; run <= 30; run += 1) {
    const counter: Counter = { requests: 0, refused: 0, calls: new Set<string>() };
    const config = resolveConfig({ seed: `${prefix}.${run}`, protocol, stepsMax: 20 });
    const target = answeringCalls(answer, counter, modern ? referenceModernTarget : referenceTarget, modern);
    each(await runSimulation(target, config, walkChoices(planWalk(config.seed, config.stepsMax, undefined)), { properties }), counter, config.seed);
    answered += counter.refused;
  }
  return answered;
}

describe('a 2026-07-28 call whose every exchange is refused', () => {
  it('is re-issued once a liveness round, and every run ends (seeds m.1 .. m.30)', async () => {
    // Every run ends within a bound of steps (the wrapped server throws past REQUESTS_MAX requests).
    const refused = await eachSeed('m', '2026-07-28', refusal, [], (result) => expect(result.steps + result.healSteps).toBeLessThan(200));
    // The walks did make calls, every one of them refused.
    expect(refused).toBeGreaterThan(10);
  });

  it('answered with its result as a JSON body instead: taken as its result, so never re-issued (seeds m.1 .. m.30)', async () => {
    // One request a call: the result came back in it. (Taken for a refusal, each would be re-issued in the liveness phase.)
    const answered = await eachSeed('m', '2026-07-28', jsonResult, [], (_result, counter, seed) => expect(counter.refused, seed).toBe(counter.calls.size));
    expect(answered).toBeGreaterThan(10);
  });
});

describe('a 2025-11-25 call answered with its result as a JSON body', () => {
  it('is no SSE stream, so priming-event does not judge it (seeds j.1 .. j.30)', async () => {
    const answered = await eachSeed('j', '2025-11-25', jsonResult, ['priming-event'], (result, _counter, seed) => expect(result.violation, seed).toBeNull());
    expect(answered).toBeGreaterThan(10);
  });
});
