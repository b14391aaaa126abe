// Each client property on hand-made observations: it fires on the behaviour it forbids and stays silent on the
// behaviour the real clients show. (The planted clients in sim/levels/client-level.test.ts catch them end to end.)

import { describe, expect, it } from 'vitest';
import type { AppCall, ClientWorld, Exchange, ObservedStream } from '../../sim/levels/client-world.ts';
import { clientReconnectsBounded, RECONNECT_FAILURES_MAX } from './client-reconnects-bounded.ts';
import { clientReinitializesAfter404 } from './client-reinitializes-after-404.ts';
import { clientRequestsSettle } from './client-requests-settle.ts';
import { clientResumesLatest } from './client-resumes-latest.ts';

function stream(fields: Partial<ObservedStream> & { key: string }): ObservedStream {
  return { sessionId: 's1', eventIdLatest: null, broken: false, answered: false, resumeFailures: 0, ...fields };
}

function world(fields: { streams?: ObservedStream[]; events?: Record<string, string>; sessions404?: Record<string, number>; calls?: AppCall[]; healExhausted?: boolean }): ClientWorld {
  return {
    streams: new Map((fields.streams ?? []).map((entry) => [entry.key, entry])),
    eventStreams: new Map(Object.entries(fields.events ?? {})),
    sessions404: new Map(Object.entries(fields.sessions404 ?? {})),
    calls: fields.calls ?? [],
    healExhausted: fields.healExhausted ?? false,
    clock: { nowMs: 61_000 },
    clockStartMs: 0,
  } as unknown as ClientWorld;
}

function get(index: number, lastEventId: string | null, sessionId = 's1'): Exchange {
  return { index, method: 'GET', sessionId, lastEventId, body: null, bodyMethod: null, phase: 'sent', status: 0, stream: null, queue: [], endQueued: false, respond: null, fail: null, controller: null, release: () => undefined };
}

describe('client-resumes-latest', () => {
  const broken = stream({ key: 'post#3', eventIdLatest: 'e2', broken: true });
  const w = world({ streams: [broken], events: { e1: 'post#3', e2: 'post#3' } });
  it('holds for a resume with the latest event ID of the stream', () => expect(clientResumesLatest.onRequest!(w, get(5, 'e2'))).toBeNull());
  it('fires on a resume with an earlier one', () => expect(clientResumesLatest.onRequest!(w, get(5, 'e1'))).toMatch(/latest event ID the client received on it is e2/));
  it('fires on an ID the client never received', () => expect(clientResumesLatest.onRequest!(w, get(5, 'forged'))).toMatch(/never received/));
  it('fires on a cursorless GET while a broken stream with an ID waits', () => expect(clientResumesLatest.onRequest!(w, get(5, null))).toMatch(/dropped its resumption token/));
  it('holds for a cursorless GET in another session, or once the stream was answered', () => {
    expect(clientResumesLatest.onRequest!(w, get(5, null, 's2'))).toBeNull();
    expect(clientResumesLatest.onRequest!(world({ streams: [{ ...broken, answered: true }] }), get(5, null))).toBeNull();
  });
});

describe('client-reinitializes-after-404', () => {
  const w = world({ sessions404: { s1: 4 } });
  it('fires on a request that still carries the dead session', () => expect(clientReinitializesAfter404.onRequest!(w, get(6, 'e1'))).toMatch(/answered 404 on #4/));
  it('holds for a new session, and for a request without one (initialize)', () => {
    expect(clientReinitializesAfter404.onRequest!(w, get(6, null, 's2'))).toBeNull();
    expect(clientReinitializesAfter404.onRequest!(w, { ...get(6, null), sessionId: null })).toBeNull();
  });
});

describe('client-reconnects-bounded', () => {
  it(`holds at ${RECONNECT_FAILURES_MAX} failed attempts in a row and fires past them`, () => {
    const at = (failures: number) => clientReconnectsBounded.onResponse!(world({ streams: [stream({ key: 'get#2', eventIdLatest: 'e1', resumeFailures: failures })], events: { e1: 'get#2' } }), { ...get(9, 'e1'), status: 404 });
    expect(at(RECONNECT_FAILURES_MAX)).toBeNull();
    expect(at(RECONNECT_FAILURES_MAX + 1)).toMatch(/keeps trying/);
  });
});

describe('client-requests-settle', () => {
  const pending: AppCall = { index: 0, callId: 'c1', tool: 'work', outcome: null, detail: '' };
  it('fires on a call still pending when the liveness phase ran out of things to do', () => expect(clientRequestsSettle.onFinish!(world({ calls: [pending] }))).toMatch(/c1 \(work\) never settled/));
  it('holds once every call settled, and says nothing when the liveness phase hit its step bound', () => {
    expect(clientRequestsSettle.onFinish!(world({ calls: [{ ...pending, outcome: 'error' }] }))).toBeNull();
    expect(clientRequestsSettle.onFinish!(world({ calls: [pending], healExhausted: true }))).toBeNull();
  });
});
