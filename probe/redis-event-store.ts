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

import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The two ways this store can be built: scoped to its session, or not (a bug). */
export type RedisStoreShape = 'redis' | 'redis-unscoped';

/** Separates the parts of an event ID (session, stream, Redis entry): none of them contains it. */
const SEPARATOR = '~';

/** The keys of the probe app's streams. */
const PREFIX = 'resumecheck-probe';

/** The smallest part of the Redis client this store uses. */
export interface RedisCommands {
  xAdd(key: string, id: string, fields: Record<string, string>): Promise<string>;
  xRange(key: string, start: string, end: string): Promise<{ id: string; message: Record<string, string> }[]>;
}

function isPlaceholder(message: unknown): boolean {
  return typeof message === 'object' && message !== null && Object.keys(message).length === 0;
}

/**
 * The store of one session's transport over an open Redis client: scoped to `session`, or, with `session` null, the
 * unscoped bug shared by every session.
 */
export function redisEventStore(client: RedisCommands, session: string | null): EventStore {
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
      const entry = await client.xAdd(keyOf(streamId), '*', { message: JSON.stringify(message) });
      return eventIdOf(streamId, entry);
    },
    async getStreamIdForEventId(eventId) {
      return parse(eventId)?.streamId;
    },
    async replayEventsAfter(lastEventId, { send }) {
      const cursor = parse(lastEventId);
      // Not reached through the SDK, which asks getStreamIdForEventId first and answers 400 to an ID it cannot place.
      if (cursor === null) throw new Error(`no stream of this store has event ID ${JSON.stringify(lastEventId)}`);
      for (const { id, message } of await client.xRange(keyOf(cursor.streamId), `(${cursor.entry}`, '+')) {
        const parsed: unknown = JSON.parse(message['message'] ?? '{}');
        if (isPlaceholder(parsed)) continue;
        await send(eventIdOf(cursor.streamId, id), parsed as JSONRPCMessage);
      }
      return cursor.streamId;
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
