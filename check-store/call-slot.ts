// What the worker running a store is doing, readable by the main thread even while the worker is stuck: a shared
// buffer holding a heartbeat count and the description of the store call under way (or the last one made).

/** Bytes of the description kept; a longer one is cut. */
const TEXT_BYTES = 512;
const HEADER_BYTES = 8;

/** The shared buffer of one contained check. */
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
