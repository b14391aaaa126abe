// The SDK targets driven directly through ServerInstance with a recording host: the resumption path works, runs
// are deterministic, and the SDK's behaviours the properties must judge are written down as characterisations.

import { describe, expect, it } from 'vitest';
import type { Target } from '../target.ts';
import { sdkCoreTarget, sdkSharedTarget, sdkTarget } from './index.ts';
import { describeSdkTargets } from './describe-sdk-targets.ts';
import { sdkGlobals } from './random.ts';
import {
  WINDOW_EVENTS_MAX,
  lastEventIdOf,
  resumeStandaloneAfterMissedNotification,
  sessionWithMissedProgress,
  sessionsOf,
  stepsOf,
  withRun,
} from './sdk-driver.ts';

const ALL_TARGETS: readonly Target[] = [sdkTarget, sdkSharedTarget, sdkCoreTarget];

describeSdkTargets(ALL_TARGETS);

describe.each(ALL_TARGETS.map((target) => [target.name, target] as const))('%s routing', (_name, target) => {
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
        const { standalone, resume } = await resumeStandaloneAfterMissedNotification(driver);
        expect(standalone.response).toMatchObject({ status: 200, streaming: true });
        expect(stepsOf(driver.recorder.framesOf(standalone.connection))).toEqual([1]);
        expect(resume.response.status).toBe(200);
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
});

