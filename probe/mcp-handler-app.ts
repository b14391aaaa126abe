// mcp-handler 2.4.0 (Vercel's framework-agnostic adapter over the MCP SDK 2.x) as its README sets it up: one
// `createMcpHandler((server) => { server.registerTool(…) })`, a Fetch-style `(Request) => Promise<Response>` mounted
// in a plain Node server (its README: "Other frameworks that expose Fetch-compatible Request and Response APIs"), with
// one tool of its own, an `echo`, as a user's server has: no probe tools, so resumecheck judges it by the echo's marker.
// Every path is the handler's: it serves the 2026-07-28 revision and answers 2025-era clients statelessly.

import { type Server, createServer } from 'node:http';
import { createMcpHandler } from 'mcp-handler';
import { z } from 'zod';
import { type ProbeToolServer, registerProbeTools } from './probe-tools.ts';
import { type ServedTarget, listenOnLoopback } from './serve-target.ts';
import { webRequestOf, writeResponse } from './web-bridge.ts';

/** Serves the mcp-handler app on 127.0.0.1:`port`, at every path (the handler does not look at it). */
export async function serveMcpHandlerApp(options: { port: number; tools?: 'echo' | 'probe' }): Promise<ServedTarget> {
  const handler = createMcpHandler(
    (server) => {
      // Test mode: the probe tools in place of the echo, so a tool's executions and their cancellation are seen.
      if (options.tools === 'probe') {
        registerProbeTools(server as unknown as ProbeToolServer);
        return;
      }
      server.registerTool('echo', { description: 'Echoes back the message it is given', inputSchema: z.object({ message: z.string() }) }, async ({ message }) => ({
        content: [{ type: 'text', text: `Echo: ${message}` }],
      }));
    },
    { serverInfo: { name: 'mcp-handler-echo', version: '1.0.0' } },
  );
  const server: Server = createServer((request, response) => {
    void (async () => {
      const converted = await webRequestOf(request, options.port);
      if (converted === null) return response.destroy();
      await writeResponse(await handler(converted.request), response);
    })().catch((error: unknown) => {
      process.stderr.write(`probe server (mcp-handler): ${(error as Error).stack ?? String(error)}\n`);
      if (!response.headersSent) response.writeHead(500).end();
      else response.destroy();
    });
  });
  return listenOnLoopback(server, options.port, async () => {});
}
