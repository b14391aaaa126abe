// The behaviours every SDK target shares, whatever its line (1.x or 2.x) and store: registered as vitest tests for a
// list of targets by each line's test file, so both lines are held to the same resumption path, the same polling,
// the same determinism, and the same (defective) handling of a re-sent request ID.

import { describe, expect, it } from 'vitest';
import { callRequest, provenanceOf, standaloneNotification } from '../../sim/tools.ts';
import type { Target } from '../target.ts';
import { type Driver, lastEventIdOf, stepsOf, withRun } from './sdk-driver.ts';

/** Registers, for each target, the tests every SDK target must pass (a `describe` per target). */
export function describeSdkTargets(targets: readonly Target[]): void {
  describe.each(targets.map((target) => [target.name, target] as const))('%s target', (_name, target) => {
    it('describes itself as an SDK target with no planted breaks, and names the SDK it runs', () => {
      expect(target.kind).toBe('sdk');
      expect(target.breaks).toEqual([]);
      expect(target.sdk).toMatch(/^@modelcontextprotocol\/(sdk|server)@\d+\.\d+\.\d+$/);
    });

    it('seed s1: a work call cut after its first progress resumes by GET + Last-Event-ID: the missed progress, then the result', async () => {
      await withRun(target, 's1', async (driver) => {
        const sessionId = await driver.initialize();
        const { connection: post, response } = await driver.call(sessionId, 'work', 'c1');
        expect(response).toMatchObject({ status: 200, streaming: true, sessionId });
        const priming = driver.recorder.framesOf(post)[0];
        expect(priming).toMatchObject({ data: null, retryMs: 1000 });
        expect(priming?.eventId).not.toBeNull();

        await driver.server.advance(1);
        expect(stepsOf(driver.recorder.framesOf(post))).toEqual(['prime', 1]);
        await driver.server.cut(post);
        await driver.server.advance(1); // stored while nobody listens
        expect(stepsOf(driver.recorder.framesOf(post))).toEqual(['prime', 1]);
        expect(driver.recorder.ended(post)).toBe(false);

        const resume = await driver.get(sessionId, lastEventIdOf(driver.recorder.framesOf(post)));
        expect(resume.response).toMatchObject({ status: 200, streaming: true });
        expect(stepsOf(driver.recorder.framesOf(resume.connection))).toEqual([2]);
        await driver.server.advance(1);
        expect(stepsOf(driver.recorder.framesOf(resume.connection))).toEqual([2, 3]);
        expect(provenanceOf(driver.recorder.framesOf(resume.connection)[1]?.data ?? null)?.result).toBe(true);
        expect(driver.recorder.ended(resume.connection)).toBe(true);
      });
    });

    it('seed s1: closeConnection ends the POST stream without its result; the client polls back by GET until the result', async () => {
      await withRun(target, 's1', async (driver) => {
        const sessionId = await driver.initialize();
        const { connection: post } = await driver.call(sessionId, 'work', 'c1');
        await driver.server.closeConnection(post, 1000);
        expect(driver.recorder.ended(post)).toBe(true);
        await driver.server.advance(1);
        const first = await driver.get(sessionId, lastEventIdOf(driver.recorder.framesOf(post)));
        expect(stepsOf(driver.recorder.framesOf(first.connection))).toEqual([1]);
        await driver.server.closeConnection(first.connection, 1000);
        expect(driver.recorder.ended(first.connection)).toBe(true);
        await driver.server.advance(1);
        const second = await driver.get(sessionId, lastEventIdOf(driver.recorder.framesOf(first.connection)));
        await driver.server.advance(1);
        expect(stepsOf(driver.recorder.framesOf(second.connection))).toEqual([2, 3]);
        expect(driver.recorder.ended(second.connection)).toBe(true);
      });
    });

    it('seed s2: the same seed twice gives identical frames, event IDs included; another seed differs', async () => {
      const scenario = async (driver: Driver): Promise<void> => {
        const sessionId = await driver.initialize();
        const { connection } = await driver.call(sessionId, 'work', 'c1');
        await driver.server.advance(1);
        await driver.server.cut(connection);
        await driver.server.advance(1);
        await driver.get(sessionId, lastEventIdOf(driver.recorder.framesOf(connection)));
        await driver.server.advance(1);
        await driver.get(sessionId, null);
        await driver.server.notify(sessionId, standaloneNotification({ epoch: driver.epoch, sessionId, k: 1 }));
      };
      const first = await withRun(target, 's2', scenario);
      const again = await withRun(target, 's2', scenario);
      const other = await withRun(target, 's3', scenario);
      expect(again.log).toEqual(first.log);
      expect(first.log.length).toBeGreaterThan(8);
      expect(other.log).not.toEqual(first.log);
    });

    it("seed s1: a re-sent request ID runs twice; the first execution's result goes to the second POST and the first POST never ends", async () => {
    await withRun(target, 's1', async (driver) => {
      const sessionId = await driver.initialize();
      const body = callRequest(7, 'append', 'c1');
      const first = await driver.server.handle({ method: 'POST', connection: 50, sessionId, lastEventId: null, body });
      const second = await driver.server.handle({ method: 'POST', connection: 51, sessionId, lastEventId: null, body });
      expect([first.status, second.status]).toEqual([200, 200]);
      expect(driver.recorder.executions.map((execution) => execution.callId)).toEqual(['c1', 'c1']);
      await driver.server.advance(1);
      await driver.server.advance(2);
      expect(stepsOf(driver.recorder.framesOf(50))).toEqual(['prime']);
      expect(driver.recorder.ended(50)).toBe(false);
      expect(stepsOf(driver.recorder.framesOf(51))).toEqual(['prime', 1]);
      expect(driver.recorder.ended(51)).toBe(true);
    });
    });
  });
}
