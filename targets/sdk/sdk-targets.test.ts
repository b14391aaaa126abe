// The SDK targets driven directly through ServerInstance with a recording host: the resumption path works, runs
// are deterministic, and the SDK's behaviours the properties must judge are written down as characterisations.

import { describe, expect, it } from 'vitest';
import { callRequest, provenanceOf, standaloneNotification } from '../../sim/tools.ts';
import type { Target } from '../target.ts';
import { sdkCoreTarget, sdkSharedTarget, sdkTarget } from './index.ts';
import { sdkGlobals } from './random.ts';
import { WINDOW_EVENTS_MAX, type Driver, lastEventIdOf, sessionsOf, stepsOf, withRun } from './sdk-driver.ts';

const ALL_TARGETS: readonly Target[] = [sdkTarget, sdkSharedTarget, sdkCoreTarget];

describe.each(ALL_TARGETS.map((target) => [target.name, target] as const))('%s target', (_name, target) => {
  it('describes itself as an SDK target with no planted breaks', () => {
    expect(target.kind).toBe('sdk');
    expect(target.breaks).toEqual([]);
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

  it('routes like the spec asks: unknown session 404, no session header 400, DELETE then 404; a refused exchange can be cut', async () => {
    await withRun(target, 's1', async (driver) => {
      const unknown = await driver.get('s-unknown', null);
      expect(unknown.response).toMatchObject({ status: 404, streaming: false });
      expect((await driver.get(null, null)).response.status).toBe(400);
      // A refused exchange is complete: cutting or closing it afterwards does nothing.
      await driver.server.cut(unknown.connection);
      await driver.server.closeConnection(unknown.connection, 1000);
      expect(driver.recorder.ended(unknown.connection)).toBe(false);
      const sessionId = await driver.initialize();
      const removed = await driver.server.handle({ method: 'DELETE', connection: 100, sessionId });
      expect(removed).toMatchObject({ status: 200, streaming: false });
      expect((await driver.get(sessionId, null)).response.status).toBe(404);
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
});

describe('the patched globals', () => {
  it('are restored by close, which is idempotent, and a second concurrent run is refused', async () => {
    const before = sdkGlobals();
    const run = await sdkTarget.open({ seed: 'g', windowEventsMax: WINDOW_EVENTS_MAX });
    try {
      expect(sdkGlobals()).not.toEqual(before);
      expect(() => sdkSharedTarget.open({ seed: 'g', windowEventsMax: WINDOW_EVENTS_MAX })).toThrow(/already patched/);
    } finally {
      await run.close();
    }
    await run.close();
    expect(sdkGlobals()).toEqual(before);
  });
});

// What the real SDK does in the situations resumecheck's properties judge. These expectations describe the SDK as
// it is (1.32.2), defects included: a change here means the SDK changed, and the notes in NOTES.md need updating.
describe('SDK behaviours (characterisation)', () => {
  /** Session A has a work call cut after progress 1 and progress 2 stored; returns A's cursor (progress 1). */
  async function sessionWithMissedProgress(driver: Driver): Promise<{ sessionA: string; cursorA: string }> {
    const sessionA = await driver.initialize();
    const { connection } = await driver.call(sessionA, 'work', 'ca');
    await driver.server.advance(1);
    await driver.server.cut(connection);
    await driver.server.advance(1);
    return { sessionA, cursorA: lastEventIdOf(driver.recorder.framesOf(connection)) };
  }

  it("seed s1: sdk-shared leaks across sessions: session B's GET with session A's cursor gets A's events, then hangs open", async () => {
    await withRun(sdkSharedTarget, 's1', async (driver) => {
      const { sessionA, cursorA } = await sessionWithMissedProgress(driver);
      const sessionB = await driver.initialize();
      const leak = await driver.get(sessionB, cursorA);
      expect(leak.response).toMatchObject({ status: 200, streaming: true });
      expect(sessionsOf(driver.recorder.framesOf(leak.connection))).toEqual([sessionA]);
      expect(stepsOf(driver.recorder.framesOf(leak.connection))).toEqual([2]);
      // A's result goes to A's transport: B's connection is registered under A's stream ID in B's transport only.
      await driver.server.advance(1);
      expect(driver.recorder.ended(leak.connection)).toBe(false);
      await driver.server.closeConnection(leak.connection, 1000);
      expect(driver.recorder.ended(leak.connection)).toBe(false);
    });
  });

  it("seed s1: sdk answers another session's cursor with 200 and an empty stream that never ends", async () => {
    await withRun(sdkTarget, 's1', async (driver) => {
      const { cursorA } = await sessionWithMissedProgress(driver);
      const sessionB = await driver.initialize();
      const resume = await driver.get(sessionB, cursorA);
      expect(resume.response).toMatchObject({ status: 200, streaming: true });
      await driver.server.advance(1);
      expect(driver.recorder.framesOf(resume.connection)).toEqual([]);
      expect(driver.recorder.ended(resume.connection)).toBe(false);
    });
  });

  it("seed s1: sdk-core refuses another session's cursor with 400 (getStreamIdForEventId is undefined)", async () => {
    await withRun(sdkCoreTarget, 's1', async (driver) => {
      const { cursorA } = await sessionWithMissedProgress(driver);
      const sessionB = await driver.initialize();
      expect((await driver.get(sessionB, cursorA)).response).toMatchObject({ status: 400, streaming: false });
    });
  });

  it.each([
    ['sdk', 200, sdkTarget],
    ['sdk-shared', 200, sdkSharedTarget],
    ['sdk-core', 400, sdkCoreTarget],
  ] as const)('seed s1: %s after a restart: the old session gets 404; its cursor in a new session gets %i', async (_name, status, target) => {
    await withRun(target, 's1', async (driver) => {
      const { sessionA, cursorA } = await sessionWithMissedProgress(driver);
      await driver.restart();
      expect((await driver.get(sessionA, cursorA)).response.status).toBe(404);
      const sessionB = await driver.initialize();
      const resume = await driver.get(sessionB, cursorA);
      expect(resume.response.status).toBe(status);
      // 200 here is an empty stream that never ends: the example store returns '' for an unknown ID.
      expect(driver.recorder.framesOf(resume.connection)).toEqual([]);
      expect(driver.recorder.ended(resume.connection)).toBe(false);
    });
  });

  it.each([
    ['sdk', 200, sdkTarget],
    ['sdk-shared', 200, sdkSharedTarget],
    ['sdk-core', 400, sdkCoreTarget],
  ] as const)('seed s1: %s answers a malformed cursor with %i (200 = an empty stream that never ends)', async (_name, status, target) => {
    await withRun(target, 's1', async (driver) => {
      const sessionId = await driver.initialize();
      const resume = await driver.get(sessionId, 'not-an-event-id');
      expect(resume.response.status).toBe(status);
      expect(driver.recorder.framesOf(resume.connection)).toEqual([]);
      expect(driver.recorder.ended(resume.connection)).toBe(false);
    });
  });

  it.each(ALL_TARGETS.map((target) => [target.name, target] as const))(
    'seed s1: %s resuming a completed stream before its result replays the result, then hangs open (the transport never ends it)',
    async (_name, target) => {
      await withRun(target, 's1', async (driver) => {
        const sessionId = await driver.initialize();
        const { connection: post } = await driver.call(sessionId, 'read', 'c1');
        await driver.server.advance(1);
        expect(stepsOf(driver.recorder.framesOf(post))).toEqual(['prime', 1]);
        expect(driver.recorder.ended(post)).toBe(true);
        const priming = driver.recorder.framesOf(post)[0]?.eventId ?? null;
        const resume = await driver.get(sessionId, priming);
        expect(resume.response.status).toBe(200);
        expect(stepsOf(driver.recorder.framesOf(resume.connection))).toEqual([1]);
        expect(driver.recorder.ended(resume.connection)).toBe(false);
        // Nothing the server can do ends it: the request's stream mapping is gone, so closeSSEStream finds nothing.
        await driver.server.closeConnection(resume.connection, 1000);
        expect(driver.recorder.ended(resume.connection)).toBe(false);
      });
    },
  );

  it.each([
    ['sdk', [], sdkTarget],
    ['sdk-shared', [], sdkSharedTarget],
    ['sdk-core', [2, 3], sdkCoreTarget],
  ] as const)(
    "seed s1: %s resuming the standalone stream after a missed notification delivers %j (the example store splits '_GET_stream_…' on '_' and finds no stream)",
    async (_name, delivered, target) => {
      await withRun(target, 's1', async (driver) => {
        const sessionId = await driver.initialize();
        const standalone = await driver.get(sessionId, null);
        expect(standalone.response).toMatchObject({ status: 200, streaming: true });
        const notify = (k: number): Promise<void> =>
          Promise.resolve(driver.server.notify(sessionId, standaloneNotification({ epoch: driver.epoch, sessionId, k })));
        await notify(1);
        expect(stepsOf(driver.recorder.framesOf(standalone.connection))).toEqual([1]);
        await driver.server.cut(standalone.connection);
        await notify(2);
        const resume = await driver.get(sessionId, lastEventIdOf(driver.recorder.framesOf(standalone.connection)));
        expect(resume.response.status).toBe(200);
        await notify(3);
        expect(stepsOf(driver.recorder.framesOf(resume.connection))).toEqual([...delivered]);
      });
    },
  );

  it("seed s0: sdk orders same-millisecond events by their random suffix: a resume replays the '{}' priming placeholder and skips progress 2", async () => {
    await withRun(sdkTarget, 's0', async (driver) => {
      const sessionId = await driver.initialize();
      const { connection: post } = await driver.call(sessionId, 'work', 'c1');
      await driver.server.advance(1);
      await driver.server.cut(post);
      await driver.server.advance(1);
      const resume = await driver.get(sessionId, lastEventIdOf(driver.recorder.framesOf(post)));
      await driver.server.advance(1);
      expect(stepsOf(driver.recorder.framesOf(resume.connection))).toEqual(['{}', 3]);
    });
  });

  it('seed s9: sdk replays a completed stream out of order when its events share a millisecond', async () => {
    await withRun(sdkTarget, 's9', async (driver) => {
      const sessionId = await driver.initialize();
      const { connection: post } = await driver.call(sessionId, 'work', 'c1');
      for (let step = 0; step < 3; step += 1) await driver.server.advance(1);
      const resume = await driver.get(sessionId, driver.recorder.framesOf(post)[0]?.eventId ?? null);
      expect(stepsOf(driver.recorder.framesOf(resume.connection))).toEqual([3, 2, 1]);
    });
  });

  it.each(ALL_TARGETS.map((target) => [target.name, target] as const))(
    'seed s1: %s executes a re-sent request ID twice; the first execution\'s result goes to the second POST and the first POST never ends',
    async (_name, target) => {
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
    },
  );
});
