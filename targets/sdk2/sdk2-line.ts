// The 2.x line of the MCP TypeScript SDK (`@modelcontextprotocol/server`) bound for the shared SDK harness: its
// WebStandardStreamableHTTPServerTransport and McpServer, and for dual-era serving its `createMcpHandler` with the
// `isLegacyRequest` predicate in front, as the package's own documentation wires them.

import {
  type CallToolResult,
  type EventStore,
  McpServer,
  type ServerNotification,
  WebStandardStreamableHTTPServerTransport,
  createMcpHandler,
  isLegacyRequest,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { SERVER_INFO, type SdkLine, type ToolRunner } from '../sdk/index.ts';
import { installedVersion } from '../sdk/installed-version.ts';
import { TOOL_NAMES } from '../target.ts';

/** The 2.x server package as installed, `@modelcontextprotocol/server@2.4.0`. */
export const SDK2_PACKAGE = `@modelcontextprotocol/server@${installedVersion('@modelcontextprotocol/server', '@modelcontextprotocol/server')}`;

/**
 * The tools' input schema, built once: the modern endpoint builds a McpServer per request (the SDK asks for a fresh
 * instance each time), and an immutable schema can be shared by all of them.
 */
const CALL_INPUT_SCHEMA = z.object({ callId: z.string() });

/** A 2.x McpServer with the simulator's tools, each running through `run`. */
function buildServer(run: ToolRunner): McpServer {
  const server = new McpServer(SERVER_INFO, { capabilities: { logging: {} } });
  for (const tool of TOOL_NAMES) {
    // 2.x takes a Standard Schema object (zod 4), not 1.x's raw shape; the handler gets a context, not `extra`.
    server.registerTool(
      tool,
      { description: `resumecheck's ${tool} tool`, inputSchema: CALL_INPUT_SCHEMA },
      async ({ callId }, ctx): Promise<CallToolResult> =>
        (await run(tool, callId, {
          sessionId: ctx.sessionId,
          notify: (message) => ctx.mcpReq.notify(message as unknown as ServerNotification),
          signal: ctx.mcpReq.signal,
        })) as CallToolResult,
    );
  }
  return server;
}

/** The 2.x line: `@modelcontextprotocol/server`'s transport, McpServer and dual-era handler. */
export const SDK_2_LINE: SdkLine = {
  sdk: SDK2_PACKAGE,
  createTransport: (options) =>
    // The harness's EventStore type is 1.x's; 2.x declares the same interface (storeEvent, replayEventsAfter,
    // optional getStreamIdForEventId) over its own JSONRPCMessage type.
    new WebStandardStreamableHTTPServerTransport({ ...options, eventStore: options.eventStore as unknown as EventStore }),
  createServer(run) {
    const server = buildServer(run);
    return {
      connect: (transport) => server.connect(transport as WebStandardStreamableHTTPServerTransport),
      notify: (message) => server.server.notification(message as unknown as ServerNotification),
    };
  },
  createModernEndpoint(run) {
    // Modern-only strict: 2026-07-28 requests are served per request by a fresh McpServer; 2025-era requests that
    // reach it get the SDK's rejection. No keep-alive timer, as on the legacy transports.
    const handler = createMcpHandler(() => buildServer(run), { legacy: 'reject', keepAliveMs: 0 });
    return {
      isLegacy: (request) => isLegacyRequest(request),
      fetch: (request) => handler.fetch(request),
      close: () => handler.close(),
    };
  },
};
