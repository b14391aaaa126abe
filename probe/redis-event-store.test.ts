// The probe app's Redis event store without Redis: its two shapes over an in-memory stand-in for XADD and XRANGE, so
// what each does with a cursor of its own session, of another session, and a malformed one is pinned in milliseconds.
// (targets/wire/serve-node.test.ts runs both over a real redis-server and the SDK.)

import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { type RedisCommands, redisEventStore } from './redis-event-store.ts';

/** XADD with `*` and XRANGE with an exclusive start, as Redis answers them, entry IDs counted up from 1-0. */
function fakeRedis(): RedisCommands {
  const streams = new Map<string, { id: string; message: Record<string, string> }[]>();
  let next = 0;
  const order = (id: string): number => Number(id.split('-')[0]);
  return {
    async xAdd(key, id, fields) {
      if (id !== '*') throw new Error('the store lets Redis pick entry IDs');
      next += 1;
      const entries = streams.get(key) ?? [];
      entries.push({ id: `${next}-0`, message: fields });
      streams.set(key, entries);
      return `${next}-0`;
    },
    async xRange(key, start, end) {
      if (!start.startsWith('(') || end !== '+') throw new Error('the store reads after an exclusive cursor');
      return (streams.get(key) ?? []).filter((entry) => order(entry.id) > order(start.slice(1)));
    },
  };
}

const note = (text: string): JSONRPCMessage => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: text } });

async function replayed(store: ReturnType<typeof redisEventStore>, cursor: string): Promise<{ streamId: string; sent: string[] }> {
  const sent: string[] = [];
  const streamId = await store.replayEventsAfter(cursor, {
    send: async (_eventId, message) => {
      sent.push(String((message as unknown as { params: { data: string } }).params.data));
    },
  });
  return { streamId, sent };
}

describe('the Redis store scoped to its session (--store redis)', () => {
  it("resumes its own stream after the cursor, skips the priming placeholder, and places no other session's cursor", async () => {
    const redis = fakeRedis();
    const a = redisEventStore(redis, 'session-a');
    const b = redisEventStore(redis, 'session-b');
    const primed = await a.storeEvent('_GET_stream', {} as JSONRPCMessage);
    await a.storeEvent('_GET_stream', note('a1'));
    const bCursor = await b.storeEvent('_GET_stream', note('b1'));
    await a.storeEvent('_GET_stream', note('a2'));
    expect(primed).toMatch(/^session-a~_GET_stream~\d+-0$/);
    expect(await a.getStreamIdForEventId!(primed)).toBe('_GET_stream');
    expect(await replayed(a, primed)).toEqual({ streamId: '_GET_stream', sent: ['a1', 'a2'] });
    // Session B's cursor names no stream of session A: the SDK answers 400 before it would replay.
    expect(await a.getStreamIdForEventId!(bCursor)).toBeUndefined();
    await expect(replayed(a, bCursor)).rejects.toThrow(/no stream of this store/);
    expect(await replayed(b, bCursor)).toEqual({ streamId: '_GET_stream', sent: [] });
    expect(await a.getStreamIdForEventId!('not-an-event-id')).toBeUndefined();
    expect(await a.getStreamIdForEventId!('session-a~x~y~1-0')).toBeUndefined();
  });
});

describe('the Redis store keyed by stream alone (--store redis-unscoped, the planted bug)', () => {
  it("places any session's cursor, and every session's standalone stream is one: a resume replays the other session's events", async () => {
    const redis = fakeRedis();
    const a = redisEventStore(redis, null);
    const b = redisEventStore(redis, null);
    const aCursor = await a.storeEvent('_GET_stream', note('a1'));
    await b.storeEvent('_GET_stream', note('b1'));
    expect(aCursor).toMatch(/^_GET_stream~\d+-0$/);
    expect(await replayed(a, aCursor)).toEqual({ streamId: '_GET_stream', sent: ['b1'] });
    expect(await b.getStreamIdForEventId!(aCursor)).toBe('_GET_stream');
  });
});
