// The 2.x repository's example event store, written anew here from its behaviour (not copied): the
// `InMemoryEventStore` of github.com/modelcontextprotocol/typescript-sdk, `examples/shared/src/inMemoryEventStore.ts`
// on the main branch as read at commit 3924de99df834302d89f5997a1b64ca268282284 (2026-08-18; the file last changed in
// 1823aae891837ebb5e3db885ec635f9efefd5771). The npm package ships no store; the repository's sessionful examples
// (`examples/sse-polling/server.ts`, `examples/repl/server.ts`) import this one and share one instance among all
// sessions.
//
// What it does, and so what this store does:
// - an event's ID is `<stream ID>_<Date.now()>_<8 characters of Math.random() in base 36>`, one reading of each per
//   event (the same format and draws as the 1.x example, so the same seed gives the same IDs);
// - it keeps every event, in a map keyed by its ID (never evicting);
// - a replay finds the cursor's stream by the text before the cursor's first `_` (so a `_GET_stream_…` cursor names
//   the stream `''`, and nothing is replayed), answers `''` for a cursor it does not hold, then orders every event
//   it holds by comparing IDs as strings (`localeCompare`), and sends that stream's events after the cursor in that
//   order (two events of one millisecond are ordered by their random suffix);
// - it has no `getStreamIdForEventId`.
// Behaviourally this is the 1.x example store (`@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js`):
// the fix that reads the stream from the stored record and replays in insertion order is in unmerged pull requests
// (#1984, #2567), not on main.

import type { EventStore } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { SDK_AMBIENT } from '../sdk/random.ts';

/** Where the store reads the time and its randomness (the SDK run's patched globals). */
export interface StoreAmbient {
  now(): number;
  random(): number;
}

/** Characters of the random suffix, after the `0.` of a base-36 fraction. */
const SUFFIX_FROM = 2;
const SUFFIX_TO = 10;

interface StoredEvent {
  readonly streamId: string;
  readonly message: JSONRPCMessage;
}

/** The 2.x repository's example `InMemoryEventStore`, as described at the head of this file. */
export class RepositoryExampleEventStore implements EventStore {
  private readonly stored = new Map<string, StoredEvent>();

  constructor(private readonly ambient: StoreAmbient = SDK_AMBIENT) {}

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const millis = this.ambient.now();
    const suffix = this.ambient.random().toString(36).slice(SUFFIX_FROM, SUFFIX_TO);
    const eventId = `${streamId}_${millis}_${suffix}`;
    this.stored.set(eventId, { streamId, message });
    return eventId;
  }

  async replayEventsAfter(lastEventId: string, { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> }): Promise<string> {
    if (lastEventId === '' || !this.stored.has(lastEventId)) return '';
    const cut = lastEventId.indexOf('_');
    const streamId = cut < 0 ? lastEventId : lastEventId.slice(0, cut);
    if (streamId === '') return '';
    // A snapshot, ordered by ID as text: events stored while the replay sends are not part of it.
    const byId = [...this.stored].sort(([left], [right]) => left.localeCompare(right));
    let past = false;
    for (const [eventId, event] of byId) {
      if (event.streamId !== streamId) continue;
      if (past) await send(eventId, event.message);
      else if (eventId === lastEventId) past = true;
    }
    return streamId;
  }
}
