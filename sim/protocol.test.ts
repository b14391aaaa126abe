// What a configured revision changes on the wire, seen from the target's side: the initialize's protocolVersion, the
// MCP-Protocol-Version header (from 2025-06-18 on, only when a protocol is configured), priming events and polling
// closes (2025-11-25 only), and the 2026-07-28 client's requests (the _meta envelope, no session, no cursor).

import { traceLines } from './levels/vocabulary.ts';
import { describe, expect, it } from 'vitest';
import { referenceTarget } from '../targets/reference/reference.target.ts';
import { wrapHandle } from '../targets/wrap-handle.ts';
import { revisionHeadersOf } from '../targets/sdk/revision-headers.ts';
import type { HttpRequest, Target } from '../targets/target.ts';
import { type ActionList, describeAction } from './actions.ts';
import { type ProtocolChoice, resolveConfig } from './config.ts';
import { type ChoiceWorld, runSimulation } from './engine.ts';
import { scriptChoices } from './shrink/script.ts';
import { PROTOCOL_VERSION_META_KEY } from './tools.ts';
import type { World } from './world.ts';

/** The reference, recording every request it is sent. */
function recording(requests: HttpRequest[]): Target {
  return wrapHandle(referenceTarget, (request, handle) => (requests.push(request), handle(request)));
}

/** Runs a script and returns what the server was sent, and the descriptions of the actions enabled after it. */
async function sent(script: readonly string[], protocol?: ProtocolChoice, seed = 'protocol') {
  const requests: HttpRequest[] = [];
  let enabled: string[] = [];
  const steps = scriptChoices(script);
  const source = {
    choose(world: ChoiceWorld, list: ActionList) {
      const choice = steps.choose(world, list);
      if (choice === null) enabled = Array.from({ length: list.count }, (_, index) => describeAction(world as World, list.kind[index]!, list.a[index]!, list.b[index]!));
      return choice;
    },
  };
  const result = await runSimulation(recording(requests), resolveConfig({ seed, clients: 1, ...(protocol === undefined ? {} : { protocol }) }), source, { record: true });
  return { requests, enabled, result };
}

describe('a configured revision on the wire (seed protocol)', () => {
  it('no protocol configured: what every run sent before (2025-11-25 initialize, no MCP-Protocol-Version field at all)', async () => {
    const { requests } = await sent(['client 1 initializes', 'client 1 calls read']);
    expect(requests[0]!.method === 'POST' && requests[0]!.body['params']).toMatchObject({ protocolVersion: '2025-11-25' });
    for (const request of requests) expect('protocolVersion' in request).toBe(false);
  });

  it('2025-03-26: its initialize, no header, no priming event, no polling close', async () => {
    const { requests, enabled, result } = await sent(['client 1 initializes', 'client 1 calls work'], '2025-03-26');
    expect(requests[0]!.method === 'POST' && requests[0]!.body['params']).toMatchObject({ protocolVersion: '2025-03-26' });
    // Every request after the initialize names its client's revision, and so carries no MCP-Protocol-Version: the
    // header came in 2025-06-18 (a server without one "SHOULD assume protocol version 2025-03-26").
    expect(requests[0]!.protocolVersion).toBeUndefined();
    expect(requests.slice(1).map((request) => request.protocolVersion)).toEqual(['2025-03-26', '2025-03-26']);
    for (const request of requests) expect(revisionHeadersOf(request)).toEqual({});
    const call = traceLines(result.trace)[1]!.notes.join('\n');
    expect(call).not.toContain('priming event');
    expect(enabled.some((action) => action.includes('asking client 1 to poll back'))).toBe(false);
    expect(enabled.some((action) => action.startsWith('the network cuts connection #2'))).toBe(true);
  });

  it('2025-06-18: MCP-Protocol-Version on every request after the initialize', async () => {
    const { requests } = await sent(['client 1 initializes', 'client 1 calls read', 'client 1 opens a standalone GET stream'], '2025-06-18');
    expect(requests[0]!.protocolVersion).toBeUndefined();
    expect(requests.slice(1).map((request) => request.protocolVersion)).toEqual(['2025-06-18', '2025-06-18', '2025-06-18']);
    expect(requests.slice(1).map((request) => revisionHeadersOf(request)['mcp-protocol-version'])).toEqual(['2025-06-18', '2025-06-18', '2025-06-18']);
  });

  it('2025-11-25: a priming event first, and the polling close offered', async () => {
    const { enabled, result } = await sent(['client 1 initializes', 'client 1 calls work'], '2025-11-25');
    expect(traceLines(result.trace)[1]!.notes.join('\n')).toContain('priming event');
    expect(enabled).toContain('the server closes connection #2 asking client 1 to poll back');
  });

  it('2026-07-28: no initialize offered; a call with the _meta envelope, no session, no cursor; its events carry no ID', async () => {
    const { requests, enabled, result } = await sent(['client 1 calls work (2026-07-28)', 'the server advances c1'], '2026-07-28');
    expect(requests).toHaveLength(1);
    const [call] = requests;
    expect(call).toMatchObject({ method: 'POST', sessionId: null, lastEventId: null, protocolVersion: '2026-07-28' });
    expect(call!.method === 'POST' && (call!.body['params'] as { _meta: Record<string, unknown> })._meta[PROTOCOL_VERSION_META_KEY]).toBe('2026-07-28');
    expect(traceLines(result.trace)[1]!.notes.join('\n')).toMatch(/← #0 progress #1 of c1/);
    expect(enabled.some((action) => action.includes('initializes'))).toBe(false);
    expect(enabled).toContain('client 1 probes the endpoint with a GET (2026-07-28)');
    expect(enabled).toContain('a proxy re-sends c1 (work, request 1) of client 1 while it is in flight');
  });

  it('2026-07-28: a cut cancels the call on the reference; the liveness phase re-issues it under a new request ID', async () => {
    const { requests, result } = await sent(['client 1 calls read (2026-07-28)', 'the network cuts connection #0'], '2026-07-28');
    expect(result.violation).toBeNull();
    expect(traceLines(result.trace)[1]!.notes.join('\n')).toContain('⊘ read c1 cancelled');
    expect(traceLines(result.trace)[2]!.action).toBe('client 1 re-issues c1 (read) under a new request ID: its exchange broke before the result');
    expect(requests.map((request) => (request.method === 'POST' ? request.body['id'] : null))).toEqual([1, 2]);
  });
});
