// @hono/mcp 0.3.2 as its README serves it (Hono on @hono/node-server, its StreamableHTTPTransport), made stateful as
// the SDK's examples are (a transport and an McpServer per session, kept in a Map), each session with the package's
// MemoryEventStore, and the probe tools (resumecheck/probe) in test mode. PORT names the port.
import { randomUUID } from 'node:crypto';
import { serve } from '@hono/node-server';
import { MemoryEventStore, StreamableHTTPTransport } from '@hono/mcp';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Hono } from 'hono';
import { registerProbeTools } from '../../dist/probe/probe-tools.js';

const transports = new Map();
const app = new Hono();
app.all('/mcp', async (c) => {
  const id = c.req.header('mcp-session-id');
  let transport = id === undefined ? undefined : transports.get(id);
  if (transport === undefined) {
    if (id !== undefined) return c.json({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }, 404);
    transport = new StreamableHTTPTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: new MemoryEventStore(),
      onsessioninitialized: (sessionId) => transports.set(sessionId, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) transports.delete(transport.sessionId);
    };
    const server = new McpServer({ name: 'hono-probe', version: '1.0.0' });
    registerProbeTools(server);
    await server.connect(transport);
  }
  return transport.handleRequest(c);
});
serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: '127.0.0.1' });
