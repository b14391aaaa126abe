// A resume end to end over loopback HTTP: the SDK's Streamable HTTP server transport on node:http with the event
// store, a tool call whose SSE stream the client cuts after its first progress notification, and a GET with
// Last-Event-ID that must bring the missed notifications and the result, each once, in order. Prints what the client
// saw as one JSON line; exit 0 when it is right, 1 when not. Arguments: the SDK package (default
// @modelcontextprotocol/sdk: an npm alias names another version) and the event store's module (default
// resumecheck-event-store).
import { createServer } from 'node:http';

const [sdk = '@modelcontextprotocol/sdk', storeModule = 'resumecheck-event-store'] = process.argv.slice(2);
const { McpServer } = await import(`${sdk}/server/mcp.js`);
const { StreamableHTTPServerTransport } = await import(`${sdk}/server/streamableHttp.js`);
const { createEventStoreBackend } = await import(storeModule);

const SESSION = 'session-1';
const PROTOCOL_VERSION = '2025-11-25';
/** Event-loop turns the client waits, at most, for the server to see the cut connection (a GET gets 409 until then). */
const TURNS_MAX = 10_000;

let release = () => {};
const released = new Promise((resolve) => {
  release = resolve;
});
const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => SESSION, eventStore: createEventStoreBackend({ epoch: 'e1' }).forSession(SESSION) });
const server = new McpServer({ name: 'loopback-resume', version: '0.0.0' });
server.registerTool('count', {}, async (extra) => {
  const progressToken = extra._meta?.progressToken;
  for (const progress of [1, 2, 3]) {
    await extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress, total: 3 } });
    if (progress === 1) await released;
  }
  return { content: [{ type: 'text', text: 'counted to 3' }] };
});
await server.connect(transport);
const http = createServer(async (request, response) => {
  let body = '';
  for await (const chunk of request) body += chunk;
  await transport.handleRequest(request, response, body === '' ? undefined : JSON.parse(body));
});
await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${http.address().port}/mcp`;
const headers = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
const sessionHeaders = { ...headers, 'mcp-session-id': SESSION, 'mcp-protocol-version': PROTOCOL_VERSION };

/** Reads SSE frames (with data) from a response until `enough(frames)` or the end; returns them and the reader. */
async function readFrames(response, enough) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const frames = [];
  let buffer = '';
  while (!enough(frames)) {
    const chunk = await reader.read();
    if (chunk.done) break;
    buffer += decoder.decode(chunk.value, { stream: true });
    for (let boundary = buffer.indexOf('\n\n'); boundary >= 0; boundary = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, boundary);
      buffer = buffer.slice(boundary + 2);
      const id = /^id: ?(.*)$/m.exec(block)?.[1] ?? null;
      const data = [...block.matchAll(/^data: ?(.*)$/gm)].map((match) => match[1]).join('\n');
      if (data !== '') frames.push({ id, message: JSON.parse(data) });
    }
  }
  return { frames, reader };
}

function describe(frame) {
  const { message } = frame;
  return message.method === 'notifications/progress' ? `progress ${message.params.progress}` : `result ${message.result?.content?.[0]?.text ?? JSON.stringify(message)}`;
}

const initialize = await fetch(url, {
  method: 'POST',
  headers,
  body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'loopback', version: '0' } } }),
});
await readFrames(initialize, () => false);
await fetch(url, { method: 'POST', headers: sessionHeaders, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });

const cut = new AbortController();
const call = await fetch(url, {
  method: 'POST',
  headers: sessionHeaders,
  signal: cut.signal,
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'count', arguments: {}, _meta: { progressToken: 'p1' } } }),
});
const before = await readFrames(call, (frames) => frames.length === 1);
cut.abort();
const cursor = before.frames[0].id;
// The tool goes on while nobody is connected: its events are stored, not delivered.
release();
let resumed = null;
const statuses = [];
for (let turn = 0; turn < TURNS_MAX && resumed === null; turn += 1) {
  const response = await fetch(url, { method: 'GET', headers: { ...sessionHeaders, accept: 'text/event-stream', 'last-event-id': cursor } });
  statuses.push(response.status);
  if (response.status === 409) {
    await response.body?.cancel();
    await new Promise((resolve) => setImmediate(resolve));
    continue;
  }
  resumed = response;
}
const after = resumed === null || resumed.status !== 200 ? { frames: [], reader: null } : await readFrames(resumed, (frames) => frames.some((frame) => frame.message.id === 1));
await after.reader?.cancel();
const seen = { sdk, before: before.frames.map(describe), cursor, status: statuses.at(-1), after: after.frames.map(describe) };
console.log(JSON.stringify(seen));
const right = JSON.stringify(seen.before) === JSON.stringify(['progress 1']) && JSON.stringify(seen.after) === JSON.stringify(['progress 2', 'progress 3', 'result counted to 3']);
http.closeAllConnections();
http.close();
process.exit(right ? 0 : 1);
