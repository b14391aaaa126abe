// An event store for the probe server's SDK 1.x app that keeps its events in Redis, so that every process of a
// deployment (`resumecheck fuzz --serve-node`) reads what the others wrote and a node's crash loses nothing stored:
// the store of a real multi-node deployment. The server is the one at $REDIS_URL.
//
// Each SDK stream is a Redis stream of its own (`XADD`, `XRANGE` after the cursor), and the priming event's empty
// placeholder is stored (it has an ID to resume from) but never sent again as a message. The SDK's EventStore
// interface receives no session, so the app gives each session's transport a store of its own over the one client:
// - `redis`: scoped to its session. An event ID names its session and stream; a cursor of another session (a proxy's
//   mix-up, a client presenting its old session's cursor after a restart) names no stream of this one and is refused
//   (the transport answers 400 "Invalid event ID format").
// - `redis-unscoped`: a planted bug, the shape of a first attempt (and of stores that key by stream alone): the keys
//   and event IDs name the stream only, so any session's cursor resumes any stream, and every session's standalone
//   stream (`_GET_stream` in the SDK) is one Redis stream that each session's resume replays from.
//
// Given a feed (a deployment whose nodes serve each other's sessions, probe/sdk-shared-sessions-app.ts), the store also
// carries what other processes append to a stream onto a connection of this one: a stream resumed here goes on with the
// messages another node stores for it after the replay (a call's stream until its response), and `follow` does the same
// for a standalone stream opened here. Each entry names the process that wrote it; a process's own messages reach a
// connection of its own through its transport, as on one node, so a follower forwards only the others'.

import { AsyncLocalStorage } from 'node:async_hooks';
import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The two ways this store can be built: scoped to its session, or not (a bug). */
export type RedisStoreShape = 'redis' | 'redis-unscoped';

/** Separates the parts of an event ID (session, stream, Redis entry): none of them contains it. */
const SEPARATOR = '~';

/** The keys of the probe app's streams. */
const PREFIX = 'resumecheck-probe';

/** The SDK's name for a session's standalone (GET) stream; every other stream is a call's. */
const STANDALONE_STREAM = '_GET_stream';

/** The smallest part of the Redis client this store uses. */
export interface RedisCommands {
  xAdd(key: string, id: string, fields: Record<string, string>): Promise<string>;
  xRange(key: string, start: string, end: string): Promise<{ id: string; message: Record<string, string> }[]>;
}

/** What a store needs to carry other processes' messages onto this one's connections. */
export interface StoreFeed {
  /** This process's name, written with each entry it appends. */
  readonly node: string;
  /** Tells every process that `key` has a new entry. */
  appended(key: string): Promise<void>;
  /** Calls `listener` each time any process says `key` has a new entry, until the returned function is called. */
  onAppended(key: string, listener: () => void): () => void;
  /** The ID of `key`'s last entry, or `0-0` when it has none. */
  lastEntry(key: string): Promise<string>;
}

/**
 * The connection a request of the app is served on, as an AbortSignal that fires when it closes: the app runs the
 * transport's handling of each request in it, so that a follower the store starts for a resumed stream stops with it.
 */
export const connectionScope = new AsyncLocalStorage<AbortSignal>();

/** Messages a follower hands a transport to send with the event ID they were stored under (see `follow`). */
const forwardedIds = new WeakMap<object, string>();

function isResponse(message: unknown): boolean {
  return typeof message === 'object' && message !== null && ('result' in message || 'error' in message) && 'id' in message;
}

/**
 * Forwards every entry of `key` after `after` that another process appended, now and as they come, with `forward`, one
 * at a time in order, until `signal` fires (or, with `untilResponse`, after a response: a call's stream ends with it).
 */
function followKey(client: RedisCommands, feed: StoreFeed, key: string, after: string, signal: AbortSignal, untilResponse: boolean, forward: (entry: string, message: JSONRPCMessage) => Promise<void>): void {
  let last = after;
  let running = false;
  let again = false;
  const stop = (): void => unsubscribe();
  const drain = async (): Promise<void> => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        for (const { id, message } of await client.xRange(key, `(${last}`, '+')) {
          if (signal.aborted) return;
          last = id;
          if (message['node'] === feed.node) continue;
          const parsed: unknown = JSON.parse(message['message'] ?? '{}');
          if (isPlaceholder(parsed)) continue;
          await forward(id, parsed as JSONRPCMessage);
          if (untilResponse && isResponse(parsed)) {
            stop();
            return;
          }
        }
      } while (again && !signal.aborted);
    } finally {
      running = false;
    }
  };
  const unsubscribe = feed.onAppended(key, () => void drain().catch(() => undefined));
  signal.addEventListener('abort', stop, { once: true });
  if (signal.aborted) stop();
  else void drain().catch(() => undefined);
}

/** The store of one session, with what a feed adds. */
export interface RedisEventStore extends EventStore {
  /** Where stream `streamId` ends now (`0-0` when it is empty), for `follow` to start after; null without a feed. */
  lastEntry(streamId: string): Promise<string | null>;
  /**
   * Until `signal` fires, sends each message another process stores on stream `streamId` after entry `after` through
   * `send` (the transport's own, with no related request: a standalone stream opened on this process). The transport
   * stores such a message again; this store answers with the event ID it already has, and writes nothing.
   */
  follow(streamId: string, after: string, signal: AbortSignal, send: (message: JSONRPCMessage) => Promise<void>): void;
}

function isPlaceholder(message: unknown): boolean {
  return typeof message === 'object' && message !== null && Object.keys(message).length === 0;
}

/**
 * The store of one session's transport over an open Redis client: scoped to `session`, or, with `session` null, the
 * unscoped bug shared by every session.
 */
export function redisEventStore(client: RedisCommands, session: string | null, feed?: StoreFeed): RedisEventStore {
  const scope = session === null ? '' : `${session}${SEPARATOR}`;
  const keyOf = (streamId: string): string => `${PREFIX}:${session === null ? 'any' : `session:${session}`}:stream:${streamId}`;
  const eventIdOf = (streamId: string, entry: string): string => `${scope}${streamId}${SEPARATOR}${entry}`;
  /** The stream and entry a cursor names in this store's scope, or null (malformed, or another session's). */
  const parse = (eventId: string): { streamId: string; entry: string } | null => {
    if (!eventId.startsWith(scope)) return null;
    const rest = eventId.slice(scope.length);
    const at = rest.lastIndexOf(SEPARATOR);
    if (at <= 0 || !/^\d+-\d+$/.test(rest.slice(at + 1))) return null;
    const streamId = rest.slice(0, at);
    // A scoped store's stream IDs hold no separator: one that does is another session's cursor in disguise.
    if (session !== null && streamId.includes(SEPARATOR)) return null;
    return { streamId, entry: rest.slice(at + 1) };
  };
  return {
    async storeEvent(streamId, message) {
      const forwarded = forwardedIds.get(message);
      if (forwarded !== undefined) return forwarded;
      const key = keyOf(streamId);
      const entry = await client.xAdd(key, '*', { message: JSON.stringify(message), ...(feed === undefined ? {} : { node: feed.node }) });
      await feed?.appended(key);
      return eventIdOf(streamId, entry);
    },
    async getStreamIdForEventId(eventId) {
      return parse(eventId)?.streamId;
    },
    async replayEventsAfter(lastEventId, { send }) {
      const cursor = parse(lastEventId);
      // Not reached through the SDK, which asks getStreamIdForEventId first and answers 400 to an ID it cannot place.
      if (cursor === null) throw new Error(`no stream of this store has event ID ${JSON.stringify(lastEventId)}`);
      let last = cursor.entry;
      let answered = false;
      for (const { id, message } of await client.xRange(keyOf(cursor.streamId), `(${cursor.entry}`, '+')) {
        last = id;
        const parsed: unknown = JSON.parse(message['message'] ?? '{}');
        if (isPlaceholder(parsed)) continue;
        answered ||= isResponse(parsed);
        await send(eventIdOf(cursor.streamId, id), parsed as JSONRPCMessage);
      }
      // Resumed on this process: what another one stores on the stream later comes here too, through the same `send`
      // (the SDK writes its own later messages itself, skipping any this has sent). A call's stream ends with its answer.
      const connection = connectionScope.getStore();
      const untilResponse = cursor.streamId !== STANDALONE_STREAM;
      if (feed !== undefined && connection !== undefined && !(untilResponse && answered)) {
        followKey(client, feed, keyOf(cursor.streamId), last, connection, untilResponse, (entry, message) => send(eventIdOf(cursor.streamId, entry), message));
      }
      return cursor.streamId;
    },
    async lastEntry(streamId) {
      return feed === undefined ? null : feed.lastEntry(keyOf(streamId));
    },
    follow(streamId, after, signal, sendOnTransport) {
      if (feed === undefined) return;
      followKey(client, feed, keyOf(streamId), after, signal, false, async (entry, message) => {
        forwardedIds.set(message, eventIdOf(streamId, entry));
        await sendOnTransport(message);
      });
    },
  };
}

/** Connects to the Redis server at `url`; a missing URL or an unreachable server is the caller's error. */
export async function connectRedis(url: string | undefined): Promise<RedisCommands> {
  if (url === undefined || url === '') throw new Error('a Redis store needs $REDIS_URL (redis://127.0.0.1:PORT)');
  const { createClient } = await import('@redis/client');
  const client = createClient({ url });
  client.on('error', () => {
    // Reported through the command that fails.
  });
  await client.connect();
  return client as unknown as RedisCommands;
}
