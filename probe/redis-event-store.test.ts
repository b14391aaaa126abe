// The probe app's Redis event store without Redis: its two shapes over an in-memory stand-in for XADD and XRANGE, so
// what each does with a cursor of its own session, of another session, and a malformed one is pinned in milliseconds.
// With a feed (two processes over one fake Redis), what a follower carries to a connection and what it leaves to the
// transport. (targets/wire/serve-node.test.ts runs both over a real redis-server and the SDK.)

import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { type RedisCommands, type StoreFeed, connectionScope, redisEventStore } from './redis-event-store.ts';

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

/** Two processes' feeds over one fake Redis: an append by either tells both, as Redis pub/sub does. */
function feeds(redis: RedisCommands & { last(key: string): string }): { one: StoreFeed; two: StoreFeed } {
  const listeners = new Map<string, Set<() => void>>();
  const feed = (node: string): StoreFeed => ({
    node,
    async appended(key) {
      for (const listener of [...(listeners.get(key) ?? [])]) listener();
    },
    onAppended(key, listener) {
      const set = listeners.get(key) ?? new Set();
      set.add(listener);
      listeners.set(key, set);
      return () => set.delete(listener);
    },
    async lastEntry(key) {
      return redis.last(key);
    },
  });
  return { one: feed('1'), two: feed('2') };
}

/** The fake with the last entry ID of each key, as XREVRANGE … COUNT 1 answers it. */
function withLast(redis: RedisCommands): RedisCommands & { last(key: string): string } {
  const lastOf = new Map<string, string>();
  return {
    async xAdd(key, id, fields) {
      const entry = await redis.xAdd(key, id, fields);
      lastOf.set(key, entry);
      return entry;
    },
    xRange: (key, start, end) => redis.xRange(key, start, end),
    last: (key) => lastOf.get(key) ?? '0-0',
  };
}

/** Lets every pending drain of a follower run (each reads the fake Redis in a microtask or two). */
async function settled(): Promise<void> {
  for (let turn = 0; turn < 20; turn += 1) await Promise.resolve();
}

describe('the Redis store with a feed (--sessions redis: every process serves every session)', () => {
  const result = (id: number): JSONRPCMessage => ({ jsonrpc: '2.0', id, result: { content: [] } });

  it("goes on after a resume with what another process stores on the stream, not its own process's, and stops at the call's response", async () => {
    const redis = withLast(fakeRedis());
    const { one, two } = feeds(redis);
    const onOne = redisEventStore(redis, 'session-a', one);
    const onTwo = redisEventStore(redis, 'session-a', two);
    const primed = await onOne.storeEvent('call-7', {} as JSONRPCMessage);
    await onOne.storeEvent('call-7', note('p1'));
    const sent: string[] = [];
    const connection = new AbortController();
    await connectionScope.run(connection.signal, () =>
      onTwo.replayEventsAfter(primed, {
        send: async (_eventId, message) => {
          sent.push(JSON.stringify(message));
        },
      }),
    );
    await onOne.storeEvent('call-7', note('p2'));
    // Process 2's own message reaches its connection through its transport, not the follower.
    await onTwo.storeEvent('call-7', note('own'));
    await onOne.storeEvent('call-7', result(7));
    await onOne.storeEvent('call-7', note('after the response'));
    await settled();
    expect(sent.map((text) => JSON.parse(text) as { params?: { data: string }; id?: number }).map((message) => message.params?.data ?? `result ${message.id}`)).toEqual(['p1', 'p2', 'result 7']);
  });

  it('follows a standalone stream opened here through the transport, which stores each message again under the ID it has, until the connection closes', async () => {
    const redis = withLast(fakeRedis());
    const { one, two } = feeds(redis);
    const onOne = redisEventStore(redis, 'session-a', one);
    const onTwo = redisEventStore(redis, 'session-a', two);
    await onOne.storeEvent('_GET_stream', note('before'));
    // Opened here after `before`: only what comes later is followed.
    const after = await onTwo.lastEntry('_GET_stream');
    const written: { eventId: string; data: string }[] = [];
    const connection = new AbortController();
    onTwo.follow('_GET_stream', after!, connection.signal, async (message) => {
      // What the SDK transport does with a message it is sent: store it, then write it with the ID it got.
      const eventId = await onTwo.storeEvent('_GET_stream', message);
      written.push({ eventId, data: (message as unknown as { params: { data: string } }).params.data });
    });
    const stored = await onOne.storeEvent('_GET_stream', note('n1'));
    await settled();
    connection.abort();
    await onOne.storeEvent('_GET_stream', note('n2'));
    await settled();
    expect(after).toBe('1-0');
    expect(written).toEqual([{ eventId: stored, data: 'n1' }]);
  });
});
