// The 2.x repository's example store as written here (targets/sdk2/repository-event-store.ts): the behaviour of
// examples/shared/src/inMemoryEventStore.ts on main, which is the 1.x example's: the same IDs from the same draws,
// the stream read from the ID's text before its first `_`, a replay ordered by comparing IDs as strings.

import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import type { EventStore } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { patchSdkGlobals } from '../sdk/random.ts';
import { RepositoryExampleEventStore, type StoreAmbient } from './repository-event-store.ts';

const note = (k: number): JSONRPCMessage => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: k } });

/** What a store does with one script of stores and replays: every ID it gave and everything each replay sent. */
async function exercise(store: EventStore): Promise<unknown[]> {
  const log: unknown[] = [];
  const ids: string[] = [];
  for (let k = 0; k < 12; k += 1) ids.push(await store.storeEvent(k % 3 === 0 ? '_GET_stream' : k % 3 === 1 ? 'stream-a' : 'stream-b', note(k)));
  log.push(ids);
  for (const cursor of [...ids, 'unknown', '']) {
    const sent: string[] = [];
    const stream = await store.replayEventsAfter(cursor, { send: async (eventId) => void sent.push(eventId) });
    log.push([cursor, stream, sent]);
  }
  return log;
}

/** `exercise` with the SDK's globals patched from `seed`, as an SDK run has them. */
async function underSeed(seed: string, store: () => EventStore): Promise<unknown[]> {
  const globals = patchSdkGlobals(seed);
  try {
    return await exercise(store());
  } finally {
    globals.restore();
  }
}

describe('the 2.x repository example store (written anew)', () => {
  it.each(['s1', 's2', 's3'])('seed %s: gives the IDs and replays of the 1.x example store, draw for draw', async (seed) => {
    const ours = await underSeed(seed, () => new RepositoryExampleEventStore());
    const example = await underSeed(seed, () => new InMemoryEventStore());
    expect(ours).toEqual(example);
    expect(JSON.stringify(ours)).toContain('stream-a_');
  });

  it("names a standalone stream's cursor as stream '' and replays nothing, and answers '' for a cursor it does not hold", async () => {
    const store = new RepositoryExampleEventStore({ now: () => 1000, random: () => 0.5 });
    const first = await store.storeEvent('_GET_stream', note(1));
    await store.storeEvent('_GET_stream', note(2));
    const sent: string[] = [];
    expect(await store.replayEventsAfter(first, { send: async (eventId) => void sent.push(eventId) })).toBe('');
    expect(await store.replayEventsAfter('nothing_1_x', { send: async (eventId) => void sent.push(eventId) })).toBe('');
    expect(sent).toEqual([]);
  });

  it('orders two events of one millisecond by their random suffix, not by when they were stored', async () => {
    // The later event draws the smaller suffix: a replay from before both sends it first.
    const draws = [0.9, 0.8, 0.1];
    const store = new RepositoryExampleEventStore({ now: () => 1000, random: () => draws.shift()! });
    const cursor = await store.storeEvent('s', note(0));
    const earlier = await store.storeEvent('s', note(1));
    const later = await store.storeEvent('s', note(2));
    // The cursor sorts last of the three (suffix of 0.9), so only what sorts after it would be sent: nothing.
    const sent: string[] = [];
    expect(await store.replayEventsAfter(cursor, { send: async (eventId) => void sent.push(eventId) })).toBe('s');
    expect(sent).toEqual([]);
    const fromEarlier: string[] = [];
    await store.replayEventsAfter(earlier, { send: async (eventId) => void fromEarlier.push(eventId) });
    expect(fromEarlier).toEqual([cursor]);
    expect([later, earlier, cursor].sort((a, b) => a.localeCompare(b))).toEqual([later, earlier, cursor]);
  });
});
