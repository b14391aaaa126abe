// The 2.x SDK targets driven directly through ServerInstance with a recording host: the resumption path works, runs
// are deterministic, and the 2.x behaviours the properties judge are written down as characterisations, each beside
// what 1.32.2 does in the same situation (targets/sdk/sdk-targets.test.ts pins the 1.x side).

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { CLIENT_CAPABILITIES_META_KEY, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { callRequest, initializeRequest } from '../../sim/tools.ts';
import { targetEntry } from '../registry.ts';
import { describeSdkTargets } from '../sdk/describe-sdk-targets.ts';
import { resumeStandaloneAfterMissedNotification, sessionWithMissedProgress, sessionsOf, stepsOf, withRun } from '../sdk/sdk-driver.ts';
import type { Target } from '../target.ts';
import { SDK2_PACKAGE, sdk2CoreTarget, sdk2DualBareTarget, sdk2DualTarget, sdk2ExampleTarget, sdk2SharedTarget } from './index.ts';

const ALL_TARGETS: readonly Target[] = [sdk2ExampleTarget, sdk2SharedTarget, sdk2CoreTarget, sdk2DualTarget, sdk2DualBareTarget];
/** The targets whose store is resumecheck/event-store (it has getStreamIdForEventId). */
const CORE_TARGETS: readonly Target[] = [sdk2CoreTarget, sdk2DualTarget, sdk2DualBareTarget];
/** The targets whose application answers an unplaced request itself (the 2.x repository examples' router, today). */
const ROUTER_ANSWERS: readonly Target[] = [sdk2ExampleTarget, sdk2SharedTarget, sdk2CoreTarget, sdk2DualTarget];
/** The target that hands an unplaced request to a new transport (no application answer: what a bare transport says). */
const TRANSPORT_ANSWERS: readonly Target[] = [sdk2DualBareTarget];

const named = (targets: readonly Target[]) => targets.map((target) => [target.name, target] as const);

describe('the 2.x line as installed', () => {
  it('is @modelcontextprotocol/server 2.4.0, read from its package.json, and every 2.x target records it', async () => {
    // Pinned on purpose: a new SDK version must be characterised again (and this file's expectations rechecked).
    expect(SDK2_PACKAGE).toBe('@modelcontextprotocol/server@2.4.0');
    const entry = createRequire(import.meta.url).resolve('@modelcontextprotocol/server');
    const manifest = JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as { version: string };
    expect(manifest.version).toBe('2.4.0');
    for (const target of ALL_TARGETS) expect(target.sdk).toBe(SDK2_PACKAGE);
    expect((await targetEntry('sdk-core')?.load())?.sdk).toBe('@modelcontextprotocol/sdk@1.32.2');
  });
});

describeSdkTargets(ALL_TARGETS);

describe.each(named(ALL_TARGETS))('%s target on 2.x', (_name, target) => {
  it('is listed among the built-in targets (the CLI registry, loaded on demand), with the same description', async () => {
    const entry = targetEntry(target.name);
    expect(entry).toMatchObject({ name: target.name, kind: target.kind, description: target.description });
    expect(await entry?.load()).toBe(target);
  });

  it('seed s1: resuming a completed stream before its result replays the result, then ends (1.32.2 left it open forever)', async () => {
    await withRun(target, 's1', async (driver) => {
      const sessionId = await driver.initialize();
      const { connection: post } = await driver.call(sessionId, 'read', 'c1');
      await driver.server.advance(1);
      expect(driver.recorder.ended(post)).toBe(true);
      const resume = await driver.get(sessionId, driver.recorder.framesOf(post)[0]?.eventId ?? null);
      expect(resume.response.status).toBe(200);
      expect(stepsOf(driver.recorder.framesOf(resume.connection))).toEqual([1]);
      // 2.x closes a replayed stream whose request no longer maps to it (no request in _requestToStreamMapping).
      expect(driver.recorder.ended(resume.connection)).toBe(true);
    });
  });
});

describe('routing (characterisation)', () => {
  it.each(named(ROUTER_ANSWERS))(
    "%s (the 2.x repository's examples, main at 3924de9): an unknown or terminated session ID gets 404 'Session not found', a missing one 400, from the application, for every method (as 1.32.2's examples)",
    async (_name, target) => {
      await withRun(target, 's1', async (driver) => {
        const unknown = await driver.server.handle({ method: 'POST', connection: 90, sessionId: 's-unknown', lastEventId: null, body: callRequest(9, 'read', 'c9') });
        expect(unknown).toMatchObject({ status: 404, body: { error: { code: -32001, message: 'Session not found' } } });
        expect((await driver.get('s-unknown', null)).response).toMatchObject({ status: 404, body: { error: { code: -32001, message: 'Session not found' } } });
        expect((await driver.get(null, null)).response).toMatchObject({ status: 400, body: { error: { code: -32000, message: 'Bad Request: Session ID required' } } });
        const sessionId = await driver.initialize();
        expect(await driver.server.handle({ method: 'DELETE', connection: 100, sessionId })).toMatchObject({ status: 200, streaming: false });
        expect((await driver.get(sessionId, null)).response.status).toBe(404);
        // A refused exchange is complete: cutting it afterwards does nothing.
        await driver.server.cut(90);
        expect(driver.recorder.ended(90)).toBe(false);
      });
    },
  );

  it.each(named(TRANSPORT_ANSWERS))(
    "%s (no application answer): an unknown session ID goes to a new transport, which answers 400 'Server not initialized' — before a restart and after",
    async (_name, target) => {
      await withRun(target, 's1', async (driver) => {
        const unknown = await driver.server.handle({ method: 'POST', connection: 90, sessionId: 's-unknown', lastEventId: null, body: callRequest(9, 'read', 'c9') });
        expect(unknown).toMatchObject({ status: 400, body: { error: { code: -32000, message: 'Bad Request: Server not initialized' } } });
        expect((await driver.get(null, null)).response).toMatchObject({ status: 400, body: { error: { message: 'Bad Request: Server not initialized' } } });
        const sessionId = await driver.initialize();
        await driver.restart();
        expect((await driver.get(sessionId, null)).response).toMatchObject({ status: 400, body: { error: { message: 'Bad Request: Server not initialized' } } });
        // A second session initializes normally on its own new transport.
        const other = await driver.initialize();
        expect(other).not.toBe(sessionId);
      });
    },
  );

  it.each(named([sdk2DualTarget, sdk2DualBareTarget]))(
    '%s: isLegacyRequest keeps every request the simulator sends (2025-11-25) on the legacy leg; an enveloped POST goes to createMcpHandler',
    async (_name, target) => {
      await withRun(target, 's1', async (driver) => {
        const sessionId = await driver.initialize();
        const { connection } = await driver.call(sessionId, 'read', 'c1');
        await driver.server.advance(1);
        expect(stepsOf(driver.recorder.framesOf(connection))).toEqual(['prime', 1]);
        // A 2026-07-28 request claims the per-request envelope in params._meta. The harness sends it with the
        // 2025-11-25 header it sends on every request, and the modern path answers the mismatch with -32020 on 400:
        // no session router and no legacy transport would (they answer -32000).
        const modern = callRequest(9, 'read', 'c9');
        const params = modern['params'] as Record<string, unknown>;
        const body = { ...modern, params: { ...params, _meta: { [PROTOCOL_VERSION_META_KEY]: '2026-07-28', [CLIENT_CAPABILITIES_META_KEY]: {} } } };
        const answer = await driver.server.handle({ method: 'POST', connection: 80, sessionId: null, lastEventId: null, body });
        expect(answer).toMatchObject({ status: 400, sessionId: null, body: { error: { code: -32020 } } });
        expect(driver.recorder.executions).toHaveLength(1);
      });
    },
  );
});

describe('resumption (characterisation)', () => {
  it.each(named(CORE_TARGETS))("seed s1: %s refuses another session's cursor with 400 (getStreamIdForEventId is undefined), as 1.32.2", async (_name, target) => {
    await withRun(target, 's1', async (driver) => {
      const { cursorA } = await sessionWithMissedProgress(driver);
      const sessionB = await driver.initialize();
      expect((await driver.get(sessionB, cursorA)).response).toMatchObject({ status: 400, streaming: false });
    });
  });

  it("seed s1: sdk2-shared still leaks across sessions — B's GET with A's cursor gets A's progress 2 — but then ends it (1.32.2: hung open)", async () => {
    await withRun(sdk2SharedTarget, 's1', async (driver) => {
      const { sessionA, cursorA } = await sessionWithMissedProgress(driver);
      const sessionB = await driver.initialize();
      const leak = await driver.get(sessionB, cursorA);
      expect(leak.response).toMatchObject({ status: 200, streaming: true });
      expect(sessionsOf(driver.recorder.framesOf(leak.connection))).toEqual([sessionA]);
      expect(stepsOf(driver.recorder.framesOf(leak.connection))).toEqual([2]);
      // A's stream is not one of B's requests' streams, so B's transport closes the replayed connection.
      expect(driver.recorder.ended(leak.connection)).toBe(true);
    });
  });

  it.each(named([sdk2ExampleTarget, sdk2SharedTarget]))(
    '%s answers a malformed cursor with 200 and an empty stream that ends at once (the store returns stream "", no request maps to it; 1.32.2: never ends)',
    async (_name, target) => {
      await withRun(target, 's1', async (driver) => {
        const sessionId = await driver.initialize();
        const resume = await driver.get(sessionId, 'not-an-event-id');
        expect(resume.response).toMatchObject({ status: 200, streaming: true });
        expect(driver.recorder.framesOf(resume.connection)).toEqual([]);
        expect(driver.recorder.ended(resume.connection)).toBe(true);
      });
    },
  );

  it.each([
    ['sdk2-example', [], true, sdk2ExampleTarget],
    ['sdk2-shared', [], true, sdk2SharedTarget],
    ['sdk2-core', [2, 3], false, sdk2CoreTarget],
  ] as const)(
    'seed s1: %s resuming the standalone stream after a missed notification delivers %j, ended %s (the example store maps "_GET_stream_…" to stream "")',
    async (_name, delivered, ended, target) => {
      await withRun(target, 's1', async (driver) => {
        const { standalone, resume } = await resumeStandaloneAfterMissedNotification(driver);
        expect(stepsOf(driver.recorder.framesOf(standalone.connection))).toEqual([1]);
        expect(resume.response.status).toBe(200);
        expect(stepsOf(driver.recorder.framesOf(resume.connection))).toEqual([...delivered]);
        expect(driver.recorder.ended(resume.connection)).toBe(ended);
      });
    },
  );

  it('sends a priming event only for a protocol version it supports: an initialize naming 2099-01-01 gets none (1.32.2 compared strings and primed it)', async () => {
    await withRun(sdk2CoreTarget, 's1', async (driver) => {
      const future = initializeRequest(1);
      const body = { ...future, params: { ...(future['params'] as Record<string, unknown>), protocolVersion: '2099-01-01' } };
      const answer = await driver.server.handle({ method: 'POST', connection: 1, sessionId: null, lastEventId: null, body });
      expect(answer).toMatchObject({ status: 200, streaming: true });
      expect(stepsOf(driver.recorder.framesOf(1))).not.toContain('prime');
      expect(driver.recorder.framesOf(1).every((frame) => frame.eventId !== null)).toBe(true);
    });
  });
});
