// What the 2.x SDK does with 2026-07-28 traffic, on the modern-only endpoint (sdk2-modern: createMcpHandler with
// `legacy: 'reject'` alone) and on the dual-era one (sdk2-dual: isLegacyRequest in front), and what the legacy-only
// targets answer a modern call. Each test names the 2.4.0 source lines it relies on; a change of the SDK fails it.
//
// Line references: T2 `@modelcontextprotocol/server/dist/index.mjs` (transport, createMcpHandler, isLegacyRequest),
// R2 `…/server/dist/mcp-oHn3ureC.mjs` (PerRequestHTTPServerTransport), P2 `…/server/dist/src-DdvbAHrR.mjs` (Protocol,
// the inbound classifier); T1 `@modelcontextprotocol/sdk/dist/esm/server/webStandardStreamableHttp.js` (1.32.2).

import { describe, expect, it } from 'vitest';
import { INITIALIZED_NOTIFICATION, callRequest, initializeRequest, modernCallRequest, provenanceOf } from '../../sim/tools.ts';
import { targetEntry } from '../registry.ts';
import { SDK_1_LINE, type SdkLine, sdkCoreTarget } from '../sdk/index.ts';
import { revisionHeadersOf } from '../sdk/revision-headers.ts';
import { MODERN_REVISION, lastEventIdOf, sessionsOf, stepsOf, withRun } from '../sdk/sdk-driver.ts';
import type { Target } from '../target.ts';
import { SDK_2_LINE, sdk2CoreTarget, sdk2DualBareTarget, sdk2DualTarget, sdk2ModernTarget, sdk2SharedTarget } from './index.ts';

/** The targets whose modern path is createMcpHandler: every request there, or every enveloped POST. */
const MODERN_PATHS: ReadonlyArray<readonly [string, Target]> = [
  ['sdk2-modern', sdk2ModernTarget],
  ['sdk2-dual', sdk2DualTarget],
];

const UNSUPPORTED_LEGACY = {
  code: -32022,
  message: 'Unsupported protocol version: 2025-11-25',
  data: { supported: ['2026-07-28'], requested: '2025-11-25' },
};

describe('the modern-era targets as listed', () => {
  it('sdk2-modern is a built-in target serving the modern era only; the dual targets serve both', async () => {
    const entry = targetEntry('sdk2-modern');
    expect(entry).toMatchObject({ name: 'sdk2-modern', kind: 'sdk', eras: ['modern'] });
    expect(await entry?.load()).toBe(sdk2ModernTarget);
    expect(sdk2ModernTarget).toMatchObject({ eras: ['modern'], sdk: '@modelcontextprotocol/server@2.4.0' });
    for (const target of [sdk2DualTarget, sdk2DualBareTarget]) expect(target.eras).toEqual(['legacy', 'modern']);
    for (const target of [sdkCoreTarget, sdk2CoreTarget]) expect(target.eras).toBeUndefined();
  });
});

describe('sdk2-modern: a 2026-07-28-only endpoint (characterisation)', () => {
  it('answers GET and DELETE 405 "Method not allowed." whatever Mcp-Session-Id, Last-Event-ID and revision they carry (T2:1238-1245 → P2:5321, T2:806-816 with Allow: POST)', async () => {
    await withRun(sdk2ModernTarget, 's1', async (driver) => {
      const notAllowed = { status: 405, sessionId: null, streaming: false, body: { error: { code: -32000, message: 'Method not allowed.' }, id: null } };
      for (const protocolVersion of [MODERN_REVISION, undefined]) {
        for (const sessionId of [null, 's-proxy']) {
          expect((await driver.send({ method: 'GET', sessionId, lastEventId: null, protocolVersion })).response).toMatchObject(notAllowed);
          expect((await driver.send({ method: 'GET', sessionId, lastEventId: 'e1.1.1.1', protocolVersion })).response).toMatchObject(notAllowed);
          expect((await driver.send({ method: 'DELETE', sessionId, protocolVersion })).response).toMatchObject(notAllowed);
        }
      }
      expect(driver.recorder.log).toEqual([]);
    });
  });

  it("rejects an initialize and a legacy tools/call with 400 -32022 naming the revision they came with, echoing the request ID (P2:5325-5331: strict rejection of a claim-less request); a 2025-03-26 call names none; nothing runs", async () => {
    await withRun(sdk2ModernTarget, 's1', async (driver) => {
      const initialize = await driver.send({ method: 'POST', sessionId: null, lastEventId: null, body: initializeRequest(1) });
      // The initialize carries no MCP-Protocol-Version header; the version it names is its body's.
      expect(initialize.response).toMatchObject({ status: 400, sessionId: null, streaming: false, body: { error: UNSUPPORTED_LEGACY, id: 1 } });
      const legacyCall = await driver.send({ method: 'POST', sessionId: 's-none', lastEventId: null, body: callRequest(2, 'read', 'c1') });
      expect(legacyCall.response).toMatchObject({ status: 400, body: { error: UNSUPPORTED_LEGACY, id: 2 } });
      const oldest = await driver.send({ method: 'POST', sessionId: null, lastEventId: null, body: callRequest(3, 'read', 'c2'), protocolVersion: '2025-03-26' });
      expect(oldest.response).toMatchObject({
        status: 400,
        body: { error: { code: -32022, message: 'Unsupported protocol version: the request did not name a protocol version', data: { supported: ['2026-07-28'] } }, id: 3 },
      });
      // A claim-less notification is accepted and dropped (P2:5324).
      expect((await driver.send({ method: 'POST', sessionId: null, lastEventId: null, body: INITIALIZED_NOTIFICATION })).response).toMatchObject({ status: 202 });
      expect(driver.recorder.executions).toEqual([]);
    });
  });
});

describe.each(MODERN_PATHS)('%s: a 2026-07-28 call on createMcpHandler (characterisation)', (_name, target) => {
  it('seed s1: holds the response until the tool speaks; a tool with no progress is answered in JSON — one message, no event ID — and the exchange ends (R2:130-176 "auto" mode, R2:177-203)', async () => {
    await withRun(target, 's1', async (driver) => {
      const { connection, response } = await driver.modernCall('read', 'c1');
      // The harness's report of a head the SDK has not sent yet: 200, a stream; nothing on it so far.
      expect(response).toMatchObject({ status: 200, sessionId: null, streaming: true, body: null });
      expect(driver.recorder.executions).toMatchObject([{ callId: 'c1', tool: 'read', sessionId: '' }]);
      expect(driver.recorder.framesOf(connection)).toEqual([]);
      await driver.server.advance(1);
      const frames = driver.recorder.framesOf(connection);
      expect(frames).toMatchObject([{ eventId: null, event: null, retryMs: null, data: { id: 1, result: { resultType: 'complete' } } }]);
      expect(provenanceOf(frames[0]!.data)).toMatchObject({ callId: 'c1', sessionId: '', result: true });
      expect(driver.recorder.ended(connection)).toBe(true);
    });
  });

  it('seed s1: a tool that sends progress is answered in SSE from its first message: no event IDs, no priming event, no retry; it ends after the result (R2:246-271, R2:282-284, R2:272-281)', async () => {
    await withRun(target, 's1', async (driver) => {
      const { connection } = await driver.modernCall('work', 'c1');
      await driver.server.advance(1);
      await driver.server.advance(1);
      expect(driver.recorder.ended(connection)).toBe(false);
      await driver.server.advance(1);
      const frames = driver.recorder.framesOf(connection);
      expect(stepsOf(frames)).toEqual([1, 2, 3]);
      expect(frames.every((frame) => frame.eventId === null && frame.retryMs === null && frame.data !== null)).toBe(true);
      expect(driver.recorder.ended(connection)).toBe(true);
    });
  });

  it('seed s1: a cut before the response cancels the call: the request signal aborts the per-request transport (R2:158-162), its close aborts the handler (P2:6420-6435), and the tool observes it within the cut', async () => {
    await withRun(target, 's1', async (driver) => {
      const { connection } = await driver.modernCall('work', 'c1');
      await driver.server.cut(connection);
      expect(driver.recorder.log.at(-1)).toBe('cancelled 1');
      expect(driver.recorder.executions[0]).toMatchObject({ cancelled: true, steps: 0 });
      expect(driver.recorder.framesOf(connection)).toEqual([]);
    });
  });

  it('seed s1: a cut of a streaming response cancels the call within the cut; nothing further is sent for it (R2:252-254 body cancel → close; 2026-07-28: "MUST treat a client disconnect as cancellation")', async () => {
    await withRun(target, 's1', async (driver) => {
      const { connection } = await driver.modernCall('work', 'c1');
      await driver.server.advance(1);
      expect(stepsOf(driver.recorder.framesOf(connection))).toEqual([1]);
      await driver.server.cut(connection);
      expect(driver.recorder.log.at(-1)).toBe('cancelled 1');
      expect(driver.recorder.executions[0]).toMatchObject({ cancelled: true, steps: 1 });
      expect(stepsOf(driver.recorder.framesOf(connection))).toEqual([1]);
    });
  });

  it('seed s1: two calls with the same request ID in flight each run on a server instance of their own and each gets its own result (T2:1165 one factory product per request)', async () => {
    await withRun(target, 's1', async (driver) => {
      const first = await driver.modernCall('append', 'c1', { requestId: 6 });
      const second = await driver.modernCall('append', 'c2', { requestId: 6 });
      expect(driver.recorder.executions.map((execution) => execution.callId)).toEqual(['c1', 'c2']);
      await driver.server.advance(2);
      await driver.server.advance(1);
      for (const [exchange, callId] of [[first, 'c1'], [second, 'c2']] as const) {
        const frames = driver.recorder.framesOf(exchange.connection);
        expect(frames).toHaveLength(1);
        expect(frames[0]?.data).toMatchObject({ id: 6 });
        expect(provenanceOf(frames[0]!.data)).toMatchObject({ callId, result: true });
        expect(driver.recorder.ended(exchange.connection)).toBe(true);
      }
    });
  });

  it('seed s1: a restart with a call in flight: the incarnation dies with its tool, which reports nothing (the harness closes the handler, T2:1288-1294, only to release it); the new incarnation serves a new call', async () => {
    await withRun(target, 's1', async (driver) => {
      await driver.modernCall('work', 'c1');
      await driver.restart();
      expect(driver.recorder.executions[0]?.cancelled).toBeUndefined();
      expect(driver.recorder.log.some((line) => line.startsWith('cancelled'))).toBe(false);
      const { connection } = await driver.modernCall('read', 'c2');
      await driver.server.advance(2);
      expect(stepsOf(driver.recorder.framesOf(connection))).toEqual([1]);
    });
  });
});

describe('a modern call with a legacy session\'s headers attached by a proxy (characterisation)', () => {
  it('seed s1: sdk2-dual — the call goes to createMcpHandler (P2:5283-5304 classifies by the envelope), gets no session header and no replay, and its tool runs outside the session (ctx.sessionId undefined, P2:6522); the legacy session is untouched', async () => {
    await withRun(sdk2DualTarget, 's1', async (driver) => {
      const sessionId = await driver.initialize();
      const legacy = await driver.call(sessionId, 'work', 'c1');
      await driver.server.advance(1);
      const cursor = lastEventIdOf(driver.recorder.framesOf(legacy.connection));
      await driver.server.cut(legacy.connection);
      await driver.server.advance(1);
      const modern = await driver.modernCall('read', 'c2', { sessionId, lastEventId: cursor });
      expect(modern.response).toMatchObject({ status: 200, sessionId: null });
      expect(driver.recorder.executions[1]).toMatchObject({ callId: 'c2', sessionId: '' });
      await driver.server.advance(2);
      expect(stepsOf(driver.recorder.framesOf(modern.connection))).toEqual([1]);
      expect(sessionsOf(driver.recorder.framesOf(modern.connection))).toEqual(['']);
      // The session's own stream still resumes from its cursor with what it missed, and nothing of the modern call.
      const resume = await driver.get(sessionId, cursor);
      expect(stepsOf(driver.recorder.framesOf(resume.connection))).toEqual([2]);
      expect(sessionsOf(driver.recorder.framesOf(resume.connection))).toEqual([sessionId]);
    });
  });

  it('seed s1: sdk2-modern — the headers are ignored (it has no session to find): the call runs and answers as without them', async () => {
    await withRun(sdk2ModernTarget, 's1', async (driver) => {
      const modern = await driver.modernCall('read', 'c1', { sessionId: 's-proxy', lastEventId: 'e1.1.1.1' });
      expect(modern.response).toMatchObject({ status: 200, sessionId: null });
      await driver.server.advance(1);
      expect(stepsOf(driver.recorder.framesOf(modern.connection))).toEqual([1]);
      expect(driver.recorder.executions).toMatchObject([{ callId: 'c1', sessionId: '' }]);
    });
  });
});

describe('legacy-only targets given a 2026-07-28 call (characterisation)', () => {
  it('seed s1: without a session it never reaches a tool: the 1.32.2 router (sdk-core) and the 2.x repository examples\' router (sdk2-core, sdk2-shared) answer 400', async () => {
    const cases = [
      [sdkCoreTarget, 'Bad Request: Mcp-Session-Id header is required'],
      [sdk2CoreTarget, 'Bad Request: Session ID required'],
      [sdk2SharedTarget, 'Bad Request: Session ID required'],
    ] as const;
    for (const [target, message] of cases) {
      await withRun(target, 's1', async (driver) => {
        const { response } = await driver.modernCall('append', 'c1');
        expect(response, target.name).toMatchObject({ status: 400, streaming: false, body: { error: { code: -32000, message } } });
        expect(driver.recorder.executions).toEqual([]);
      });
    }
  });

  it("seed s1: with a live session's ID attached, both lines' transports refuse the revision header with 400 before anything runs (T1:774-780, T2:689-695)", async () => {
    for (const target of [sdkCoreTarget, sdk2CoreTarget]) {
      await withRun(target, 's1', async (driver) => {
        const sessionId = await driver.initialize();
        const { response } = await driver.modernCall('append', 'c1', { sessionId });
        expect(response, target.name).toMatchObject({ status: 400, body: { error: { code: -32000, message: expect.stringMatching(/^Bad Request: Unsupported protocol version: 2026-07-28 /) } } });
        expect(driver.recorder.executions).toEqual([]);
      });
    }
  });
});

describe.each([
  ['1.32.2', SDK_1_LINE],
  ['2.4.0', SDK_2_LINE],
] as const)("the %s sessionful transport itself, given a 2026-07-28 call without a session (no application router in front; characterisation)", (_version, line: SdkLine) => {
  /** A POST as the harness sends it: the request's revision headers, JSON, both media types accepted. */
  const post = (body: ReturnType<typeof modernCallRequest>, protocolVersion?: string): Request =>
    new Request('http://resumecheck.invalid/mcp', {
      method: 'POST',
      headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', ...revisionHeadersOf({ method: 'POST', body, protocolVersion }) },
      body: JSON.stringify(body),
    });

  it('answers 400 "Server not initialized" before an initialize, and 400 "Mcp-Session-Id header is required" after one (T1:743-753, T2:660-669): the session check comes before the revision header, and no tool runs', async () => {
    const transport = line.createTransport({
      sessionIdGenerator: () => 's-direct',
      eventStore: { storeEvent: async () => 'e', replayEventsAfter: async () => '' },
      retryInterval: 1000,
      keepAliveMs: 0,
      onsessioninitialized: () => {},
      onsessionclosed: () => {},
    });
    let ran = 0;
    const server = line.createServer(async () => {
      ran += 1;
      return {};
    });
    await server.connect(transport);
    try {
      const before = await transport.handleRequest(post(modernCallRequest(1, 'read', 'c1'), MODERN_REVISION));
      expect([before.status, await before.json()]).toMatchObject([400, { error: { code: -32000, message: 'Bad Request: Server not initialized' } }]);
      const initialized = await transport.handleRequest(post(initializeRequest(2)));
      expect(initialized.status).toBe(200);
      await initialized.body?.cancel();
      const after = await transport.handleRequest(post(modernCallRequest(3, 'read', 'c2'), MODERN_REVISION));
      expect([after.status, await after.json()]).toMatchObject([400, { error: { code: -32000, message: 'Bad Request: Mcp-Session-Id header is required' } }]);
      expect(ran).toBe(0);
    } finally {
      await transport.close();
    }
  });
});
