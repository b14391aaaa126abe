// The MCP SDK 1.32.2 app as its examples build it (one McpServer and StreamableHTTPServerTransport per session, routed
// by Mcp-Session-Id, the example InMemoryEventStore per session or shared, or no store), with the probe tools
// registered by the one line a user adds: `registerProbeTools(server)`. Each session's transport acknowledges the probe
// tools' results once it has been through sending them (acknowledgeResults): a store doing I/O (Redis) holds a result
// some time after the tool returned it, and resumecheck waits for that, not for a quiet interval.

import { createServer, type Server } from 'node:http';
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { type EventStore, StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { acknowledgeResults, forgetAcknowledgedSession, registerProbeTools } from './probe-tools.ts';
import { nextMillisecond, sleepMs } from './clock.ts';
import { newSessionId } from './random.ts';
import { type ServedTarget, listenOnLoopback } from './serve-target.ts';
import { requestSessionId } from './web-bridge.ts';

import { type SdkAppStore } from './sdk-app-stores.ts';

export { SDK_APP_STORES, type SdkAppStore } from './sdk-app-stores.ts';

const BODY_BYTES_MAX = 1 << 20;

/** The app's tools: the probe tools, or only an `echo` of its own, as a server a user wrote has (no cooperation). */
export type SdkAppTools = 'probe' | 'echo';

/**
 * An echo tool as the SDK's examples write one: its `message` back as text, in a later millisecond than the call began.
 * The SDK's example store names an event `streamId_<ms>_<random>` and replays the events whose IDs sort after the
 * cursor (targets/sdk/NOTES.md, defect 5): a result stored in the same millisecond as its stream's priming event sorts
 * before it half the time, and a replay from the priming event then leaves it out, at random. The echo waits for the
 * clock to move, so what a run shows of the store does not hang on that draw.
 */
function registerEcho(server: McpServer): void {
  server.registerTool('echo', { description: 'Echoes back the message it is given', inputSchema: { message: z.string() } }, async ({ message }) => {
    await nextMillisecond();
    return { content: [{ type: 'text', text: `Echo: ${message}` }] };
  });
}

/** The app's McpServer for one session's transport, with its tools (the probe tools, or the echo alone), connected. */
export async function connectApp(transport: Parameters<McpServer['connect']>[0], tools: SdkAppTools): Promise<void> {
  const mcp = new McpServer({ name: 'resumecheck-probe-sdk-app', version: '0.1.0' }, { capabilities: { logging: {} } });
  if (tools === 'echo') registerEcho(mcp);
  else registerProbeTools(mcp);
  await mcp.connect(transport);
}

/** `store` with each write waiting `ms` first, as a store that acknowledges a write once it is replicated or on disk does. */
export function withWriteLatency(store: EventStore, ms: number): EventStore {
  return {
    async storeEvent(streamId, message) {
      await sleepMs(ms);
      return store.storeEvent(streamId, message);
    },
    ...(store.getStreamIdForEventId === undefined ? {} : { getStreamIdForEventId: store.getStreamIdForEventId.bind(store) }),
    replayEventsAfter: store.replayEventsAfter.bind(store),
  };
}

/** Serves the SDK app on 127.0.0.1:`port`; `storeWriteLatencyMs` delays each write to its store (default 0). */
export async function serveSdkApp(options: { port: number; store: SdkAppStore; tools?: SdkAppTools; redisUrl?: string; storeWriteLatencyMs?: number }): Promise<ServedTarget> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const shared = new InMemoryEventStore();
  const redisStore = options.store === 'redis' || options.store === 'redis-unscoped' ? await import('./redis-event-store.ts') : null;
  const redis = redisStore === null ? null : await redisStore.connectRedis(options.redisUrl);
  /** The store of the session `sessionId` is about to be: the example's, its own or shared, or Redis, scoped to it or not. */
  const storeFor = (sessionId: string): EventStore => {
    const store = redisStore !== null && redis !== null ? redisStore.redisEventStore(redis, options.store === 'redis' ? sessionId : null) : options.store === 'per-session' ? new InMemoryEventStore() : shared;
    return (options.storeWriteLatencyMs ?? 0) > 0 ? withWriteLatency(store, options.storeWriteLatencyMs!) : store;
  };
  const server: Server = createServer((request, response) => {
    void (async () => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      for await (const chunk of request) {
        bytes += (chunk as Buffer).length;
        if (bytes > BODY_BYTES_MAX) return response.destroy();
        chunks.push(chunk as Buffer);
      }
      let body: unknown;
      if (request.method === 'POST') {
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          response.writeHead(400, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}');
          return;
        }
      }
      const sessionId = requestSessionId(request);
      let transport = sessionId === undefined ? undefined : transports.get(sessionId);
      if (sessionId !== undefined && transport === undefined) {
        response.writeHead(404, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"Session not found"}}');
        return;
      }
      const isInitialize = typeof body === 'object' && body !== null && (body as { method?: unknown }).method === 'initialize';
      if (transport === undefined) {
        if (!isInitialize) {
          response.writeHead(400, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request: Mcp-Session-Id header is required"}}');
          return;
        }
        // The session's ID is drawn before its transport, so that a store scoped to the session can be built for it.
        const newSession = newSessionId();
        const created = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => newSession,
          ...(options.store === 'none' ? {} : { eventStore: storeFor(newSession), retryInterval: 1000 }),
          onsessioninitialized: (id) => {
            transports.set(id, created);
          },
        });
        created.onclose = () => {
          if (created.sessionId !== undefined) transports.delete(created.sessionId);
          forgetAcknowledgedSession(newSession);
        };
        acknowledgeResults(created, newSession);
        await connectApp(created, options.tools ?? 'probe');
        transport = created;
      }
      await transport.handleRequest(request, response, body);
    })().catch((error: unknown) => {
      process.stderr.write(`probe server (sdk): ${(error as Error).stack ?? String(error)}\n`);
      if (!response.headersSent) response.writeHead(500).end();
      else response.destroy();
    });
  });
  return listenOnLoopback(server, options.port, async () => {
    for (const transport of transports.values()) await transport.close();
  });
}
