// What a worker running a user's store is doing, readable by the thread that watches it even while the worker is
// stuck: a shared buffer holding a heartbeat count and the description of the store call under way (or the last one
// made). A worker installs its slot's writer once (installStoreCallSlot); every store module source made in that
// thread after it (moduleSource, in module.target.ts) names each call in it. check-store's contained check and the
// contained fuzz's workers both do, so a store that blocks or ends its thread is named with the call it was in.

import type { EventStore } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { EventStoreFactory } from './store-module.ts';

/** Bytes of the description kept; a longer one is cut. */
const TEXT_BYTES = 512;
const HEADER_BYTES = 8;

/** The shared buffer of one contained worker. */
export function createCallSlotBuffer(): SharedArrayBuffer {
  return new SharedArrayBuffer(HEADER_BYTES + TEXT_BYTES);
}

/** The worker's side: count heartbeats, say which store call is under way. */
export interface CallSlotWriter {
  beat(): void;
  call(what: string): void;
}

/** The main thread's side. */
export interface CallSlotReader {
  beats(): number;
  lastCall(): string | null;
}

/** Writes into a call slot buffer (the worker). */
export function callSlotWriter(buffer: SharedArrayBuffer): CallSlotWriter {
  const header = new Int32Array(buffer, 0, 2);
  const text = new Uint8Array(buffer, HEADER_BYTES, TEXT_BYTES);
  const encoder = new TextEncoder();
  return {
    beat: () => {
      Atomics.add(header, 0, 1);
    },
    call: (what) => {
      const { written } = encoder.encodeInto(what, text);
      Atomics.store(header, 1, written);
    },
  };
}

/** Reads a call slot buffer (the main thread). */
export function callSlotReader(buffer: SharedArrayBuffer): CallSlotReader {
  const header = new Int32Array(buffer, 0, 2);
  const text = new Uint8Array(buffer, HEADER_BYTES, TEXT_BYTES);
  const decoder = new TextDecoder();
  return {
    beats: () => Atomics.load(header, 0),
    lastCall: () => {
      const length = Atomics.load(header, 1);
      return length === 0 ? null : decoder.decode(text.slice(0, length));
    },
  };
}

/** The slot this thread names its store calls in, once installed; null: none (nothing is named). */
let installed: CallSlotWriter | null = null;

/** Names every store call of the module sources made in this thread from now on in `slot`. */
export function installStoreCallSlot(slot: CallSlotWriter): void {
  installed = slot;
}

/** The slot installed in this thread, or null. */
export function installedStoreCallSlot(): CallSlotWriter | null {
  return installed;
}

function describeArgument(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** The store with each call named in the slot before it is made. */
function tracedStore(store: EventStore, slot: CallSlotWriter, world: string): EventStore {
  const traced: EventStore = {
    storeEvent: (streamId, message) => {
      slot.call(`storeEvent(${describeArgument(streamId)}, ${describeArgument(message)}) in the run of seed ${world}`);
      return store.storeEvent(streamId, message);
    },
    replayEventsAfter: (lastEventId, options) => {
      slot.call(`replayEventsAfter(${describeArgument(lastEventId)}, …) in the run of seed ${world}`);
      return store.replayEventsAfter(lastEventId, options);
    },
  };
  const lookup = store.getStreamIdForEventId;
  if (lookup !== undefined) {
    traced.getStreamIdForEventId = (eventId) => {
      slot.call(`getStreamIdForEventId(${describeArgument(eventId)}) in the run of seed ${world}`);
      return lookup.call(store, eventId);
    };
  }
  return traced;
}

/** The factory of one world with each store it makes, and the call of it, named in `slot`. */
export function tracedFactory(factory: EventStoreFactory, slot: CallSlotWriter, world: string): EventStoreFactory {
  return async (context) => {
    slot.call(`the factory (session ${describeArgument(context.sessionId)}, incarnation ${context.epoch}) in the run of seed ${world}`);
    const store = await factory(context);
    return typeof store === 'object' && store !== null && typeof store.storeEvent === 'function' && typeof store.replayEventsAfter === 'function' ? tracedStore(store, slot, world) : store;
  };
}
