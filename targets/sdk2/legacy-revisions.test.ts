// The 2025 revisions before 2025-11-25 on both lines' legacy transports, as the harness now sends them (a 2025-03-26
// request with no MCP-Protocol-Version header, a 2025-06-18 one with its own): sessions and resumption work, and no
// stream gets a priming event (T1:201-218, T2:296-298: priming needs a client version >= 2025-11-25).

import { describe, expect, it } from 'vitest';
import { INITIALIZED_NOTIFICATION, callRequest, initializeRequest } from '../../sim/tools.ts';
import { sdkCoreTarget } from '../sdk/index.ts';
import { lastEventIdOf, stepsOf, withRun } from '../sdk/sdk-driver.ts';
import type { Target } from '../target.ts';
import { sdk2CoreTarget } from './index.ts';

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
