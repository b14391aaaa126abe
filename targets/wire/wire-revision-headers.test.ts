// The wire target sends a real server the revision headers the in-process SDK harness sends (one function decides
// both, targets/sdk/revision-headers.ts): a recording HTTP server on 127.0.0.1 sees them, one run of a few requests.

import { type IncomingHttpHeaders, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INITIALIZED_NOTIFICATION, callRequest, initializeRequest, modernCallRequest } from '../../sim/tools.ts';
import { createRecorder } from '../sdk/recording-host.ts';
import { revisionHeadersOf } from '../sdk/revision-headers.ts';
import type { HttpRequest } from '../target.ts';
import { type WireTarget, createWireTarget } from './wire.target.ts';

/** The headers of each request the recording server received that the run sent (its `x-resumecheck-run` is `r1`). */
const seen: IncomingHttpHeaders[] = [];
let server: Server;
let wire: WireTarget;

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.headers['x-resumecheck-run'] === 'r1') seen.push(request.headers);
      const body = chunks.length === 0 ? null : (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: unknown; method?: string });
      if (body === null || body.id === undefined) {
        response.writeHead(202).end();
        return;
      }
      // Enough of an MCP server for the probe check: a session on initialize, a result without probe tools otherwise.
      const headers = { 'content-type': 'application/json', ...(body.method === 'initialize' ? { 'mcp-session-id': 's-wire' } : {}) };
      response.writeHead(200, headers).end(JSON.stringify({ jsonrpc: '2.0', id: body.id, result: { tools: [] } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  wire = await createWireTarget({ url: `http://127.0.0.1:${port}/mcp`, serve: null, allowRemote: false, timing: { quietMs: 5, settleMsMax: 500 } });
});

afterAll(async () => {
  await wire.stop();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** The MCP revision headers among what the server received. */
function revisionHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of ['mcp-protocol-version', 'mcp-method', 'mcp-name']) {
    const value = headers[name];
    if (typeof value === 'string') picked[name] = value;
  }
  return picked;
}

describe('the wire target over a socket to 127.0.0.1', () => {
  it('sends each request the revision headers the SDK harness sends: none on initialize or for 2025-03-26, the revision otherwise, and 2026-07-28 mirrors method and tool', async () => {
    const requests: readonly HttpRequest[] = [
      { method: 'POST', connection: 1, sessionId: null, lastEventId: null, body: initializeRequest(1) },
      { method: 'POST', connection: 2, sessionId: 's-wire', lastEventId: null, body: INITIALIZED_NOTIFICATION },
      { method: 'POST', connection: 3, sessionId: 's-wire', lastEventId: null, body: callRequest(2, 'read', 'c1') },
      { method: 'POST', connection: 4, sessionId: 's-wire', lastEventId: null, body: callRequest(3, 'read', 'c2'), protocolVersion: '2025-03-26' },
      { method: 'POST', connection: 5, sessionId: 's-wire', lastEventId: null, body: callRequest(4, 'read', 'c3'), protocolVersion: '2025-06-18' },
      { method: 'POST', connection: 6, sessionId: null, lastEventId: null, body: modernCallRequest(5, 'append', 'c4'), protocolVersion: '2026-07-28' },
      { method: 'DELETE', connection: 7, sessionId: 's-wire', protocolVersion: '2026-07-28' },
    ];
    const run = await wire.open({ seed: 'headers', windowEventsMax: 2 });
    try {
      const instance = run.boot({ epoch: 1 }, createRecorder({ seed: 'headers', workProgressSteps: 0 }).hostFor(1));
      for (const request of requests) await instance.handle(request);
    } finally {
      await run.close();
    }
    expect(seen.map(revisionHeaders)).toEqual(requests.map((request) => revisionHeadersOf(request)));
    expect(seen.map(revisionHeaders)).toEqual([
      {},
      { 'mcp-protocol-version': '2025-11-25' },
      { 'mcp-protocol-version': '2025-11-25' },
      {},
      { 'mcp-protocol-version': '2025-06-18' },
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'append' },
      { 'mcp-protocol-version': '2026-07-28' },
    ]);
  });
});
