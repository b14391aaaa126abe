// The MCP SDK 1.32.2 app as a deployment of several nodes writes it when no balancer keeps a session on one node
// (`--sdk --store redis --sessions redis`): every process serves every session, with its sessions and events in Redis.
//
// - A session is a Redis key holding the client's `initialize` request, set before the initialize is answered. A
//   process that is sent a request of a session it does not hold builds the session's McpServer and transport there
//   (it adopts the session): the transport is handed the stored `initialize` under the session's own ID, as the SDK
//   offers no other way to start a transport in a session it did not open, and that answer goes nowhere.
// - A session another process deleted is gone here too: every request asks Redis whether its session still exists
//   (a 404 if not), and each process closes its transport of a deleted session when told (pub/sub).
// - A stream's messages reach the client wherever its connection is: the Redis store carries what another process
//   stores on a stream resumed here, or on a standalone stream opened here (probe/redis-event-store.ts, `feed`).
//
// It uses the SDK's web-standard transport (the one its Node transport wraps) through the same small adapter as the 2.x
// app, because an adopted session's `initialize` is handed to the transport as a web-standard Request.

import { type Server, createServer } from 'node:http';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { acknowledgeResults, forgetAcknowledgedSession } from './probe-tools.ts';
import { newSessionId } from './random.ts';
import { type RedisCommands, type RedisEventStore, type StoreFeed, connectionScope, redisEventStore } from './redis-event-store.ts';
import { type ServedTarget, listenOnLoopback } from './serve-target.ts';
import { type SdkAppTools, connectApp, withWriteLatency } from './sdk-app.ts';
import { jsonError, requestSessionId, webRequestOf, writeResponse } from './web-bridge.ts';

/** The keys and channels of this app in Redis. */
const SESSION_PREFIX = 'resumecheck-probe:session:';
const APPENDED = 'resumecheck-probe:appended';
const DELETED = 'resumecheck-probe:deleted';

/** The Redis client of the app: the store's commands and the few more a shared session needs. */
interface DeploymentRedis extends RedisCommands {
  set(key: string, value: string): Promise<unknown>;
  get(key: string): Promise<string | null>;
  del(key: string): Promise<number>;
  publish(channel: string, message: string): Promise<number>;
  xRevRange(key: string, end: string, start: string, options: { COUNT: number }): Promise<{ id: string }[]>;
}

/** A subscribing connection: messages of `channel` to `listener`. */
interface Subscriber {
  subscribe(channel: string, listener: (message: string) => void): Promise<void>;
}

/** Connects to Redis at `url` twice (commands, and the subscriptions every process listens on). */
async function connect(url: string): Promise<{ redis: DeploymentRedis; subscriber: Subscriber; close(): Promise<void> }> {
  const { createClient } = await import('@redis/client');
  const client = createClient({ url });
  client.on('error', () => {
    // Reported through the command that fails.
  });
  await client.connect();
  const subscriber = client.duplicate();
  subscriber.on('error', () => undefined);
  await subscriber.connect();
  return {
    redis: client as unknown as DeploymentRedis,
    subscriber: subscriber as unknown as Subscriber,
    async close() {
      await Promise.allSettled([client.close(), subscriber.close()]);
    },
  };
}

function isInitializeBody(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { method?: unknown }).method === 'initialize';
}

/** Serves the shared-sessions SDK app on 127.0.0.1:`port`, over the Redis at `redisUrl`. */
export async function serveSdkSharedSessionsApp(options: { port: number; redisUrl: string; scoped: boolean; tools?: SdkAppTools; storeWriteLatencyMs?: number }): Promise<ServedTarget> {
  const { redis, subscriber, close } = await connect(options.redisUrl);
  const listeners = new Map<string, Set<() => void>>();
  const feed: StoreFeed = {
    node: `${process.pid}`,
    async appended(key) {
      await redis.publish(APPENDED, key);
    },
    onAppended(key, listener) {
      const set = listeners.get(key) ?? new Set();
      set.add(listener);
      listeners.set(key, set);
      return () => {
        set.delete(listener);
        if (set.size === 0 && listeners.get(key) === set) listeners.delete(key);
      };
    },
    async lastEntry(key) {
      return (await redis.xRevRange(key, '+', '-', { COUNT: 1 }))[0]?.id ?? '0-0';
    },
  };
  const transports = new Map<string, { transport: WebStandardStreamableHTTPServerTransport; store: RedisEventStore }>();
  const adopting = new Map<string, Promise<{ transport: WebStandardStreamableHTTPServerTransport; store: RedisEventStore } | null>>();
  await subscriber.subscribe(APPENDED, (key) => {
    for (const listener of [...(listeners.get(key) ?? [])]) listener();
  });
  await subscriber.subscribe(DELETED, (sessionId) => {
    void transports.get(sessionId)?.transport.close();
  });

  /** A transport and McpServer for session `sessionId` (new, or adopted when `sessionId` is given). */
  const open = async (sessionId: string): Promise<{ transport: WebStandardStreamableHTTPServerTransport; store: RedisEventStore }> => {
    const store = redisEventStore(redis, options.scoped ? sessionId : null, feed);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => sessionId,
      eventStore: (options.storeWriteLatencyMs ?? 0) > 0 ? withWriteLatency(store, options.storeWriteLatencyMs!) : store,
      retryInterval: 1000,
    });
    const entry = { transport, store };
    transport.onclose = () => {
      if (transports.get(sessionId) === entry) transports.delete(sessionId);
      forgetAcknowledgedSession(sessionId);
    };
    acknowledgeResults(transport, sessionId);
    await connectApp(transport, options.tools ?? 'probe');
    return entry;
  };

  /** Session `sessionId`, held here already or adopted from Redis; null when it does not exist (any more). */
  const sessionOf = async (sessionId: string): Promise<{ transport: WebStandardStreamableHTTPServerTransport; store: RedisEventStore } | null> => {
    const initialize = await redis.get(`${SESSION_PREFIX}${sessionId}`);
    const held = transports.get(sessionId);
    if (initialize === null) {
      await held?.transport.close();
      return null;
    }
    if (held !== undefined) return held;
    const pending = adopting.get(sessionId);
    if (pending !== undefined) return pending;
    const adopted = (async () => {
      const entry = await open(sessionId);
      const answer = await entry.transport.handleRequest(
        new Request(`http://127.0.0.1:${options.port}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: initialize }),
        { parsedBody: JSON.parse(initialize) as unknown },
      );
      await answer.text();
      if (answer.status !== 200) throw new Error(`adopting session ${sessionId}: its initialize was answered ${answer.status}`);
      transports.set(sessionId, entry);
      return entry;
    })();
    adopting.set(sessionId, adopted);
    try {
      return await adopted;
    } finally {
      adopting.delete(sessionId);
    }
  };

  const server: Server = createServer((request, response) => {
    void (async () => {
      const converted = await webRequestOf(request, options.port);
      if (converted === null) return response.destroy();
      const sessionId = requestSessionId(request);
      let session: { transport: WebStandardStreamableHTTPServerTransport; store: RedisEventStore } | null;
      if (sessionId !== undefined) {
        session = await sessionOf(sessionId);
        if (session === null) return jsonError(response, 404, -32001, 'Session not found');
      } else {
        if (!isInitializeBody(converted.body)) return jsonError(response, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
        const created = newSessionId();
        session = await open(created);
        // Set before the initialize is answered, so the client's next request finds it on any node.
        await redis.set(`${SESSION_PREFIX}${created}`, JSON.stringify(converted.body));
        transports.set(created, session);
      }
      const connection = new AbortController();
      response.once('close', () => connection.abort());
      const standalone = request.method === 'GET' && request.headers['last-event-id'] === undefined;
      const after = standalone ? await session.store.lastEntry('_GET_stream') : null;
      const { transport, store } = session;
      const answer = await connectionScope.run(connection.signal, () => transport.handleRequest(converted.request, { parsedBody: converted.body }));
      if (request.method === 'DELETE' && answer.status === 200 && sessionId !== undefined) {
        await redis.del(`${SESSION_PREFIX}${sessionId}`);
        await redis.publish(DELETED, sessionId);
      }
      if (after !== null && answer.status === 200) {
        store.follow('_GET_stream', after, connection.signal, (message) => transport.send(message));
      }
      await writeResponse(answer, response);
    })().catch((error: unknown) => {
      process.stderr.write(`probe server (sdk, shared sessions): ${(error as Error).stack ?? String(error)}\n`);
      if (!response.headersSent) response.writeHead(500).end();
      else response.destroy();
    });
  });
  return listenOnLoopback(server, options.port, async () => {
    for (const { transport } of transports.values()) await transport.close();
    await close();
  });
}
