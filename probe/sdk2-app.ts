// The MCP SDK 2.4.0 app (`@modelcontextprotocol/server`): one McpServer and WebStandardStreamableHTTPServerTransport per
// session, routed by Mcp-Session-Id, behind a small node:http adapter (2.x's transport takes web-standard Requests),
// with the probe tools registered by `registerProbeTools(server)`. 2.x ships no event store: each session gets the
// 1.32.2 example InMemoryEventStore, whose interface 2.x keeps.

import { type Server, createServer } from 'node:http';
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import { type EventStore, McpServer, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import { registerProbeTools } from './probe-tools.ts';
import { newSessionId } from './random.ts';
import { type ServedTarget, listenOnLoopback } from './serve-target.ts';
import { jsonError, requestSessionId, webRequestOf, writeResponse } from './web-bridge.ts';

/** Serves the 2.x SDK app on 127.0.0.1:`port`. */
export async function serveSdk2App(options: { port: number }): Promise<ServedTarget> {
  const transports = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const server: Server = createServer((request, response) => {
    void (async () => {
      const converted = await webRequestOf(request, options.port);
      if (converted === null) return response.destroy();
      const sessionId = requestSessionId(request);
      let transport = sessionId === undefined ? undefined : transports.get(sessionId);
      if (sessionId !== undefined && transport === undefined) return jsonError(response, 404, -32001, 'Session not found');
      if (transport === undefined) {
        const isInitialize = typeof converted.body === 'object' && converted.body !== null && (converted.body as { method?: unknown }).method === 'initialize';
        if (!isInitialize) return jsonError(response, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
        const created = new WebStandardStreamableHTTPServerTransport({
          sessionIdGenerator: newSessionId,
          eventStore: new InMemoryEventStore() as unknown as EventStore,
          retryInterval: 1000,
          onsessioninitialized: (id) => {
            transports.set(id, created);
          },
        });
        created.onclose = () => {
          if (created.sessionId !== undefined) transports.delete(created.sessionId);
        };
        const mcp = new McpServer({ name: 'resumecheck-probe-sdk2-app', version: '0.1.0' }, { capabilities: { logging: {} } });
        registerProbeTools(mcp);
        await mcp.connect(created);
        transport = created;
      }
      await writeResponse(await transport.handleRequest(converted.request), response);
    })().catch((error: unknown) => {
      process.stderr.write(`probe server (sdk2): ${(error as Error).stack ?? String(error)}\n`);
      if (!response.headersSent) response.writeHead(500).end();
      else response.destroy();
    });
  });
  return listenOnLoopback(server, options.port, async () => {
    for (const transport of transports.values()) await transport.close();
  });
}
