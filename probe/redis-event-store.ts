// An event store for the probe server's SDK 1.x app that keeps its events in Redis, so that every process of a
// deployment (`resumecheck fuzz --serve-node`) reads what the others wrote and a node's crash loses nothing stored:
// the store of a real multi-node deployment. The server is the one at $REDIS_URL.
//
// `redis`: each stream is a Redis stream of its own (`XADD`, `XRANGE` after the cursor), an event ID names its stream,
// and the priming event's empty placeholder is stored (it has an ID to resume from) but never sent again as a message.
// `redis-one-log`: a planted bug, the shape of a first attempt: every event of every stream in one Redis stream, and a
// resume replays everything after the cursor, whichever stream (and session) wrote it.

import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The two ways this store can be built. */
export type RedisStoreShape = 'redis' | 'redis-one-log';

/** Separates the stream ID from the Redis entry ID in an event ID (neither contains it). */
const SEPARATOR = '~';

/** The keys of one deployment: every node of it is given the same prefix (default: one for all). */
const PREFIX = 'resumecheck-probe';

/** The smallest part of the Redis client this store uses. */
interface RedisCommands {
  xAdd(key: string, id: string, fields: Record<string, string>): Promise<string>;
  xRange(key: string, start: string, end: string): Promise<{ id: string; message: Record<string, string> }[]>;
}

function isPlaceholder(message: unknown): boolean {
  return typeof message === 'object' && message !== null && Object.keys(message).length === 0;
}

/** A store over an open Redis client. */
export function redisEventStore(client: RedisCommands, shape: RedisStoreShape, prefix = PREFIX): EventStore {
  const keyOf = (streamId: string): string => (shape === 'redis' ? `${prefix}:stream:${streamId}` : `${prefix}:one-log`);
  const parse = (eventId: string): { streamId: string; entry: string } | null => {
    const at = eventId.lastIndexOf(SEPARATOR);
    if (at <= 0 || !/^\d+-\d+$/.test(eventId.slice(at + 1))) return null;
    return { streamId: eventId.slice(0, at), entry: eventId.slice(at + 1) };
  };
  return {
    async storeEvent(streamId, message) {
      const entry = await client.xAdd(keyOf(streamId), '*', { stream: streamId, message: JSON.stringify(message) });
      return `${streamId}${SEPARATOR}${entry}`;
    },
    async getStreamIdForEventId(eventId) {
      return parse(eventId)?.streamId;
    },
    async replayEventsAfter(lastEventId, { send }) {
      const cursor = parse(lastEventId);
      // An ID this store never made: no stream to resume (the transport answers it as an unknown event ID).
      if (cursor === null) return '';
      for (const { id, message } of await client.xRange(keyOf(cursor.streamId), `(${cursor.entry}`, '+')) {
        const parsed: unknown = JSON.parse(message['message'] ?? '{}');
        if (isPlaceholder(parsed)) continue;
        await send(`${message['stream']}${SEPARATOR}${id}`, parsed as JSONRPCMessage);
      }
      return cursor.streamId;
    },
  };
}

/** Connects to $REDIS_URL and builds the store; a missing URL or an unreachable server is the caller's error. */
export async function connectRedisEventStore(url: string | undefined, shape: RedisStoreShape): Promise<EventStore> {
  if (url === undefined || url === '') throw new Error(`--store ${shape} needs $REDIS_URL (redis://127.0.0.1:PORT)`);
  const { createClient } = await import('@redis/client');
  const client = createClient({ url });
  client.on('error', () => {
    // Reported through the command that fails.
  });
  await client.connect();
  return redisEventStore(client as unknown as RedisCommands, shape);
}
