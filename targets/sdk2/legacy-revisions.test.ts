// The 2025 revisions before 2025-11-25 on both lines' legacy transports, as the harness now sends them (a 2025-03-26
// request with no MCP-Protocol-Version header, a 2025-06-18 one with its own): sessions and resumption work, and no
// stream gets a priming event (T1:201-218, T2:296-298: priming needs a client version >= 2025-11-25).

import { traceLines } from '../../sim/levels/vocabulary.ts';
import { describe, expect, it } from 'vitest';
import { INITIALIZED_NOTIFICATION, callRequest, initializeRequest } from '../../sim/tools.ts';
import { resolveConfig } from '../../sim/config.ts';
import { runSimulation } from '../../sim/engine.ts';
import { scriptChoices } from '../../sim/shrink/script.ts';
import { SDK_1_LINE, type SdkLine, createSdkTarget, sdkCoreTarget } from '../sdk/index.ts';
import { coreStores } from '../sdk/sdk-core.target.ts';
import { lastEventIdOf, stepsOf, withRun } from '../sdk/sdk-driver.ts';
import type { Target } from '../target.ts';
import { REPOSITORY_ROUTER } from './example-routing.ts';
import { SDK_2_LINE, sdk2CoreTarget } from './index.ts';

const CASES: ReadonlyArray<readonly [string, Target, string, boolean]> = [
  ['1.32.2 (sdk-core)', sdkCoreTarget, '2025-03-26', false],
  ['1.32.2 (sdk-core)', sdkCoreTarget, '2025-06-18', false],
  ['2.4.0 (sdk2-core)', sdk2CoreTarget, '2025-03-26', true],
  ['2.4.0 (sdk2-core)', sdk2CoreTarget, '2025-06-18', true],
];

describe('the older legacy revisions (characterisation)', () => {
  it.each(CASES)(
    'seed s1: %s serves a %s session without priming events; a cut call resumes with its missed progress and result (the resume then ends: %s; 1.32.2 keeps a resumed completed stream open, defect 3)',
    async (_line, target, revision, resumeEnds) => {
      await withRun(target, 's1', async (driver) => {
        const init = await driver.send({ method: 'POST', sessionId: null, lastEventId: null, body: initializeRequest(1, revision), protocolVersion: revision });
        expect(init.response).toMatchObject({ status: 200, streaming: true });
        const sessionId = init.response.sessionId!;
        const initialized = await driver.send({ method: 'POST', sessionId, lastEventId: null, body: INITIALIZED_NOTIFICATION, protocolVersion: revision });
        expect(initialized.response.status).toBe(202);
        const call = await driver.send({ method: 'POST', sessionId, lastEventId: null, body: callRequest(2, 'work', 'c1'), protocolVersion: revision });
        expect(call.response).toMatchObject({ status: 200, streaming: true });
        await driver.server.advance(1);
        expect(stepsOf(driver.recorder.framesOf(call.connection))).toEqual([1]);
        const cursor = lastEventIdOf(driver.recorder.framesOf(call.connection));
        await driver.server.cut(call.connection);
        await driver.server.advance(1);
        await driver.server.advance(1);
        const resume = await driver.send({ method: 'GET', sessionId, lastEventId: cursor, protocolVersion: revision });
        expect(resume.response).toMatchObject({ status: 200, streaming: true });
        expect(stepsOf(driver.recorder.framesOf(resume.connection))).toEqual([2, 3]);
        expect(driver.recorder.ended(resume.connection)).toBe(resumeEnds);
      });
    },
  );
});

/** `target` with its line's transports wrapped to record the `MCP-Protocol-Version` of every request they are handed. */
function recordingVersions(target: Target, line: SdkLine, seen: (string | null)[]): Target {
  return createSdkTarget({
    name: target.name,
    description: target.description,
    line: {
      ...line,
      createTransport(options) {
        const transport = line.createTransport(options);
        const handle = transport.handleRequest.bind(transport);
        transport.handleRequest = (request, options) => {
          seen.push(request.headers.get('mcp-protocol-version'));
          return handle(request, options);
        };
        return transport;
      },
    },
    ...(target.name === sdk2CoreTarget.name ? { routing: REPOSITORY_ROUTER } : {}),
    createStores: coreStores,
  });
}

describe('a simulated 2025-03-26 client (--protocol 2025-03-26) on both lines', () => {
  const script = [
    'client 1 initializes',
    'client 1 calls work',
    'the server advances c1',
    'the network cuts connection #2',
    'the server advances c1',
    'client 1 resumes the stream of c1 with its latest cursor',
    'the server advances c1',
  ];
  it.each([
    ['1.32.2', sdkCoreTarget, SDK_1_LINE],
    ['2.4.0', sdk2CoreTarget, SDK_2_LINE],
  ] as const)('%s: sends no MCP-Protocol-Version (it predates the header) and its cut call resumes to its result', async (_line, target, line) => {
    const seen: (string | null)[] = [];
    const config = resolveConfig({ seed: 'headers', clients: 1, protocol: '2025-03-26' });
    const result = await runSimulation(recordingVersions(target, line, seen), config, scriptChoices(script), { record: true });
    expect(result.violation).toBeNull();
    // initialize, notifications/initialized, the call, the resume, and the liveness phase's requests: none has it.
    expect(seen.length).toBeGreaterThanOrEqual(4);
    expect(seen.every((value) => value === null)).toBe(true);
    expect(traceLines(result.trace).map((step) => step.notes.join('\n')).join('\n')).toMatch(/result of c1/);
    // A 2025-06-18 client names its own revision on every request after the initialize.
    const named: (string | null)[] = [];
    await runSimulation(recordingVersions(target, line, named), { ...config, protocol: '2025-06-18' }, scriptChoices(script));
    expect(named[0]).toBeNull();
    expect(new Set(named.slice(1))).toEqual(new Set(['2025-06-18']));
  });
});
