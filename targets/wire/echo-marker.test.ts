// Black-box reach: a server without the probe tools is called through its own echo tool, each call carrying a marker,
// so its results are known wherever they arrive. A planted cross-session leak (one outbox for every session) is found
// by its payload alone; the same server without the leak holds; and a tool whose name does not say it echoes is never
// called, so the same leak goes unseen there (the marker, not anything else, is what sees it).

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../cli/main.ts';
import { echoCall, echoCandidates, echoMarker, markedProvenance, readMarker, readRequestIdMarker, requestIdMarker } from './echo-marker.ts';

describe('the echo marker', () => {
  it('names the run, incarnation, call and session, and is found however the tool wraps it', () => {
    const marker = echoMarker({ run: 'r3', epoch: 2, callId: 'c4', sessionId: 'sess "x" é' });
    expect(readMarker(`Echo: ${marker}`)).toEqual({ run: 'r3', epoch: 2, callId: 'c4', sessionId: 'sess "x" é' });
    const wrapped = { jsonrpc: '2.0' as const, id: 5, result: { content: [{ type: 'text', text: JSON.stringify({ message: marker }) }] } };
    expect(markedProvenance(wrapped, 'r3')).toEqual({ epoch: 2, sessionId: 'sess "x" é', callId: 'c4', k: 1, execution: 1, result: true });
    // Another run's call is never taken for this run's call of the same ID.
    expect(markedProvenance(wrapped, 'r4')?.callId).toBe('r3/c4');
    expect(markedProvenance({ jsonrpc: '2.0' as const, id: 5, result: { content: [{ type: 'text', text: 'Echo: hello' }] } }, 'r3')).toBeNull();
    expect(markedProvenance({ jsonrpc: '2.0', method: 'notifications/progress', params: { message: marker } }, 'r3')).toBeNull();
  });

  it('is sent as the echo tool’s one argument, the request ID and _meta kept', () => {
    const body = { jsonrpc: '2.0' as const, id: 7, method: 'tools/call', params: { name: 'read', arguments: { callId: 'c1' }, _meta: { progressToken: 'c1' } } };
    expect(echoCall(body, { name: 'echo', argument: 'message' }, 'M')).toEqual({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo', arguments: { message: 'M' }, _meta: { progressToken: 'c1' } } });
  });

  it('is tried only on tools named like an echo that take one string', () => {
    const string = { type: 'string' };
    const listed = {
      tools: [
        { name: 'delete_file', inputSchema: { type: 'object', properties: { path: string }, required: ['path'] } },
        { name: 'echo_two', inputSchema: { type: 'object', properties: { a: string, b: string }, required: ['a', 'b'] } },
        { name: 'echoNumber', inputSchema: { type: 'object', properties: { n: { type: 'number' } } } },
        { name: 'Echo', inputSchema: { type: 'object', properties: { text: string, loud: { type: 'boolean' } }, required: ['text'] } },
        { name: 'echo', inputSchema: { type: 'object', properties: { message: string } } },
      ],
    };
    expect(echoCandidates(listed, null)).toEqual([{ name: 'Echo', argument: 'text' }, { name: 'echo', argument: 'message' }]);
    expect(echoCandidates(listed, 'delete_file')).toEqual([{ name: 'delete_file', argument: 'path' }]);
    expect(echoCandidates({ tools: 'none' }, null)).toEqual([]);
  });
});

let runs = 0;
const scratch = mkdtempSync(join(tmpdir(), 'resumecheck-echo-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function fuzzServed(command: string, extra: readonly string[] = []): Promise<{ code: number; text: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const args = ['fuzz', '--serve', command, ...extra, '--runs', '4', '--steps', '12', '--restarts', '0', '--seed', '1', '--no-corpus', '--first', '--out', join(scratch, String(runs++)), '--property', 'no-cross-session-delivery'];
  const code = await main(args, { out: (line) => out.push(line), err: (line) => err.push(line) });
  expect(err).toEqual([]);
  return { code, text: out.join('\n') };
}

describe('the marked request ID (a server with neither the probe tools nor an echo)', () => {
  it('names the run, incarnation and session a call was sent in, and its number; one number in one session is one ID', () => {
    const fields = { run: 'r3', epoch: 2, sessionId: '0bb09552-ef3b-4d01', id: 7 };
    const marked = requestIdMarker(fields);
    expect(marked).toMatch(/^rci\.[A-Za-z0-9_-]+\.2\.[A-Za-z0-9_-]+\.7$/);
    expect(readRequestIdMarker(marked)).toEqual(fields);
    // A client's reuse of a number in its session is a reuse on the wire too; another session's is another ID.
    expect(requestIdMarker(fields)).toBe(marked);
    expect(requestIdMarker({ ...fields, sessionId: 'other' })).not.toBe(marked);
    for (const other of [7, 'rci.x', `${marked}.1`, `x${marked}`, null]) expect(readRequestIdMarker(other)).toBeNull();
  });
});

describe('a server without the probe tools, through its echo tool', () => {
  const SERVER = 'exec node targets/wire/fixtures/echo-server.mjs';

  it('a result leaked into another session is found by its marker', async () => {
    const { code, text } = await fuzzServed(`${SERVER} --leak`);
    expect(text).toMatch(/each call is sent as its tool "echo" with a marker in "message"/);
    expect(text).toMatch(/✗ no-cross-session-delivery violated/);
    expect(text).toMatch(/happened: {2}the result of \S+ \(epoch \d+, session s\d+\) was delivered to session s\d+ on connection \d+/);
    expect(code).toBe(1);
  });

  it('the same server without the leak holds', async () => {
    const { code, text } = await fuzzServed(SERVER);
    expect(text).toMatch(/✓ no violation in 4 runs/);
    expect(code).toBe(0);
  });

  it('the SDK 1.32.2 app with an echo tool of its own (McpServer and transport per session) holds, its calls answered', async () => {
    const { code, text } = await fuzzServed('exec node examples/probe-server.mjs --sdk --tools echo');
    expect(text).toMatch(/each call is sent as its tool "echo"/);
    expect(text).toMatch(/✓ no violation in 4 runs/);
    expect(code).toBe(0);
  });

  it('a tool whose name says nothing of echoing is not called: the leak goes unseen', async () => {
    const { code, text } = await fuzzServed(`${SERVER} --leak --name say`);
    expect(text).not.toMatch(/each call is sent as its tool/);
    expect(text).toMatch(/✓ no violation in 4 runs/);
    expect(code).toBe(0);
  });

  it('--echo-tool names the tool to call whatever its name, and the leak is found again', async () => {
    const { code, text } = await fuzzServed(`${SERVER} --leak --name say`, ['--echo-tool', 'say']);
    expect(text).toMatch(/each call is sent as its tool "say" with a marker in "message"/);
    expect(text).toMatch(/✗ no-cross-session-delivery violated/);
    expect(code).toBe(1);
  });

  it('--echo-tool naming a tool the server lacks is bad input, in one line', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(['fuzz', '--serve', SERVER, '--echo-tool', 'nope', '--runs', '1', '--out', join(scratch, 'bad')], { out: (line) => out.push(line), err: (line) => err.push(line) });
    expect(code).toBe(2);
    expect(out).toEqual([]);
    expect(err).toEqual(['resumecheck: --echo-tool nope: the server lists no such tool taking one string argument, or its result did not carry back what it was given']);
  });
});

describe('a call whose response the network loses after its first event (the lossy call, offered with an echo tool)', () => {
  // The SDK 1.32.2 transport and McpServer per session with an echo tool, and the SDK's example InMemoryEventStore
  // shared by every session as its ssePollingExample shares it. The echo answers at once, so only the lossy call gets
  // between the priming event and the result: the client never reads the result the store holds, and a proxy resuming
  // another session with that priming event's ID is sent it (docs/findings/over-the-wire.md, section 3).
  const TRACE = fileURLToPath(new URL('../../docs/findings/wire-traces/sdk-app-echo-shared--no-cross-session-delivery.json', import.meta.url));
  const replay = async (command: string, extra: readonly string[] = []): Promise<{ code: number; text: string }> => {
    const out: string[] = [];
    const err: string[] = [];
    // The default settle: a call's result is waited for on its stream (an echo answers within its request), not a quiet
    // spell; with a 15 ms quiet spell and no such wait a loaded machine once let the foreign resume come first.
    const code = await main(['replay', TRACE, '--serve', command, '--tries', '2', ...extra], { out: (line) => out.push(line), err: (line) => err.push(line) });
    expect(err).toEqual([]);
    return { code, text: out.join('\n') };
  };

  it('the shared example store replays the lost result into another session: found by its marker, 2 of 2 tries', async () => {
    const trace = JSON.parse(readFileSync(TRACE, 'utf8')) as { target: string; steps: { action: { kind: string } }[] };
    expect(trace.steps.map((step) => step.action.kind)).toEqual(['initialize', 'callLossy', 'initialize', 'resumeForeign']);
    const { code, text } = await replay(trace.target.slice('serve:'.length));
    expect(text).toMatch(/^no-cross-session-delivery reproduced in 2 of 2 tries/);
    expect(text).toMatch(/✗ #2 lost: id \S+ result of c1/);
    expect(code).toBe(1);
  });

  it('the same steps with a store of its own per session: nothing crosses; the hang left is advice, and fails the replay only at --strict=advice', async () => {
    // The 1.32.2 transport answers a resume with a cursor its store does not know 200 and keeps it open (no-hang, advice).
    const command = 'node examples/probe-server.mjs --sdk --tools echo';
    const { code, text } = await replay(command);
    expect(text).toMatch(/^no-cross-session-delivery reproduced in 0 of 2 tries on \S+.*; other violations: no-hang 2×/);
    expect(text).toMatch(/^\(no-hang does not fail the replay: /m);
    expect(code).toBe(0);
    expect((await replay(command, ['--strict=advice'])).code).toBe(1);
  });
});
