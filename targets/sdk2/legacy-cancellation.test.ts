// When the SDK's legacy (2025-era, sessionful) transports cancel a running tool, on both lines: the harness hands each
// tool its request's abort signal (1.x `extra.signal`, 2.x `ctx.mcpReq.signal`) and reports `host.cancelled` when it
// fires; what makes it fire is the SDK's decision, pinned here. The 2025 revisions say a disconnect "SHOULD NOT be
// interpreted as the client cancelling its request"; cancellation is `notifications/cancelled` (or the session's end).
//
// Line references: T1 `@modelcontextprotocol/sdk/dist/esm/server/webStandardStreamableHttp.js`, P1 `…/sdk/dist/esm/
// shared/protocol.js`; T2 `@modelcontextprotocol/server/dist/index.mjs`, P2 `…/server/dist/src-DdvbAHrR.mjs` (1.32.2
// and 2.4.0 as installed).

import { describe, expect, it } from 'vitest';
import { callRequest } from '../../sim/tools.ts';
import { sdkCoreTarget } from '../sdk/index.ts';
import { lastEventIdOf, stepsOf, withRun } from '../sdk/sdk-driver.ts';
import type { Target } from '../target.ts';
import { sdk2CoreTarget } from './index.ts';

/** One legacy target per line, with resumecheck/event-store (the transport's behaviour does not depend on the store). */
const LINES: ReadonlyArray<readonly [string, Target]> = [
  ['1.32.2 (sdk-core)', sdkCoreTarget],
  ['2.4.0 (sdk2-core)', sdk2CoreTarget],
];

describe.each(LINES)('legacy cancellation on %s (characterisation)', (_line, target) => {
  it('seed s1: a cut is not cancellation — the handler runs on, its next progress is stored and a resume delivers it (T1:617-627, T2:586-589: the body cancel only unregisters the stream)', async () => {
    await withRun(target, 's1', async (driver) => {
      const sessionId = await driver.initialize();
      const { connection } = await driver.call(sessionId, 'work', 'c1');
      await driver.server.advance(1);
      const cursor = lastEventIdOf(driver.recorder.framesOf(connection));
      await driver.server.cut(connection);
      expect(driver.recorder.executions[0]?.cancelled).toBeUndefined();
      await driver.server.advance(1);
      expect(driver.recorder.executions[0]?.steps).toBe(2);
      const resume = await driver.get(sessionId, cursor);
      expect(stepsOf(driver.recorder.framesOf(resume.connection))).toEqual([2]);
      expect(driver.recorder.log.some((line) => line.startsWith('cancelled'))).toBe(false);
    });
  });

  it('seed s1: a DELETE with calls in flight closes the transport, and Protocol aborts every in-flight handler: each tool observes its cancellation once, its stream ends, nothing more is sent (T1:716-732 + P1:252-270; T2:644-655 + P2:6420-6435)', async () => {
    await withRun(target, 's1', async (driver) => {
      const sessionId = await driver.initialize();
      const work = await driver.call(sessionId, 'work', 'c1');
      await driver.server.advance(1);
      const read = await driver.call(sessionId, 'read', 'c2');
      const framesBefore = driver.recorder.framesOf(work.connection).length;
      const deleted = await driver.send({ method: 'DELETE', sessionId });
      expect(deleted.response).toMatchObject({ status: 200, streaming: false });
      expect(driver.recorder.executions.map((execution) => execution.cancelled)).toEqual([true, true]);
      expect(driver.recorder.log.filter((line) => line.startsWith('cancelled'))).toEqual(['cancelled 1', 'cancelled 2']);
      expect(driver.recorder.ended(work.connection)).toBe(true);
      expect(driver.recorder.ended(read.connection)).toBe(true);
      expect(driver.recorder.framesOf(work.connection)).toHaveLength(framesBefore);
    });
  });

  it('seed s1: notifications/cancelled for a running call gets 202 and aborts its handler (P1:173-180, P2:6348-6351); no response is sent for it (P1:396-399 and 417-420, P2:6546 and 6562), so its stream stays open', async () => {
    await withRun(target, 's1', async (driver) => {
      const sessionId = await driver.initialize();
      const work = await driver.call(sessionId, 'work', 'c1');
      await driver.server.advance(1);
      // The driver numbered the initialize 1 and the call 2.
      const cancel = { jsonrpc: '2.0' as const, method: 'notifications/cancelled', params: { requestId: 2, reason: 'the user gave up' } };
      const answer = await driver.send({ method: 'POST', sessionId, lastEventId: null, body: cancel });
      expect(answer.response).toMatchObject({ status: 202 });
      expect(driver.recorder.executions[0]).toMatchObject({ cancelled: true, steps: 1 });
      expect(stepsOf(driver.recorder.framesOf(work.connection))).toEqual(['prime', 1]);
      // Every stream ends once each of its requests has its response; a cancelled request never gets one.
      expect(driver.recorder.ended(work.connection)).toBe(false);
    });
  });

  it('seed s1: with a request ID re-sent while the first is in flight, a DELETE cancels only the later execution — the abort controllers are keyed by request ID (P1:339, P2:6519) — and the earlier one runs on', async () => {
    await withRun(target, 's1', async (driver) => {
      const sessionId = await driver.initialize();
      await driver.send({ method: 'POST', sessionId, lastEventId: null, body: callRequest(7, 'work', 'c1') });
      await driver.send({ method: 'POST', sessionId, lastEventId: null, body: callRequest(7, 'work', 'c1') });
      expect(driver.recorder.executions).toHaveLength(2);
      await driver.send({ method: 'DELETE', sessionId });
      expect(driver.recorder.executions.map((execution) => execution.cancelled ?? false)).toEqual([false, true]);
      // The first copy's handler still waits for its steps: a closed transport drops what it sends.
      await driver.server.advance(1);
      expect(driver.recorder.executions[0]?.steps).toBe(1);
    });
  });
});
