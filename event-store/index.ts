// resumecheck/event-store: the decision core as a drop-in EventStore for the MCP TypeScript SDK's
// Streamable HTTP transport. One backend per server process; one store per session.

import type { EventStore } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import {
  type CompletedStreamPolicy,
  type CoreState,
  type Decision,
  type SessionRecord,
  type StreamRecord,
  appendEvent,
  createCoreState,
  decideRequest,
  endSession,
  openSession,
  openStream,
} from '../core/index.ts';
import { randomEpochToken } from './random.ts';

/** The SDK's fixed stream ID for the standalone GET stream. */
export const SDK_STANDALONE_STREAM_ID = '_GET_stream';

/** Options of {@link createEventStoreBackend}; all optional. */
export interface EventStoreBackendOptions {
  /** Token of this server incarnation, embedded in every event ID. Default: 16 random hex digits. */
  readonly epoch?: string;
  /** Events retained per stream. Default 256. */
  readonly windowEventsMax?: number;
  /** What a cursor before the result of a completed stream gets. Default: replay the tail. */
  readonly completedStreamPolicy?: CompletedStreamPolicy;
}

/** Why a store refused a cursor. `replayEventsAfter` throws it; the SDK then answers 500. */
export class CursorRefusedError extends Error {
  override readonly name = 'CursorRefusedError';
  constructor(
    readonly rule: string,
    readonly detail: string,
  ) {
    super(`Last-Event-ID refused (${rule}): ${detail}`);
  }
}

/** One server process's event storage: sessions sharing it are isolated from each other. */
export interface EventStoreBackend {
  /** The incarnation token in every event ID this backend issues. */
  readonly epoch: string;
  /** An SDK `EventStore` scoped to one session. Calling it again for the same live session returns the same store. */
  forSession(sessionId: string): EventStore;
  /** Ends a session (e.g. from the transport's `onsessionclosed`): its buffers are dropped, its cursors refused. */
  endSession(sessionId: string, how?: 'expired' | 'deleted'): void;
}

interface SessionBinding {
  readonly store: EventStore;
  readonly session: SessionRecord<JSONRPCMessage>;
  /** SDK stream ID → core stream, and back. */
  readonly streamsBySdkId: Map<string, StreamRecord<JSONRPCMessage>>;
  readonly sdkIdsByIndex: Map<number, string>;
}

/** Creates the backend of one server process (one incarnation). */
export function createEventStoreBackend(options: EventStoreBackendOptions = {}): EventStoreBackend {
  const state: CoreState<JSONRPCMessage> = createCoreState({
    epoch: options.epoch ?? randomEpochToken(),
    ...(options.windowEventsMax === undefined ? {} : { windowEventsMax: options.windowEventsMax }),
    ...(options.completedStreamPolicy === undefined ? {} : { completedStreamPolicy: options.completedStreamPolicy }),
  });
  const bindings = new Map<string, SessionBinding>();

  return {
    epoch: state.config.epoch,
    forSession(sessionId) {
      const existing = bindings.get(sessionId);
      if (existing !== undefined && existing.session.status === 'live') return existing.store;
      if (existing !== undefined) {
        throw new Error(`session ${sessionId} has ended in this backend; a new session needs a new ID`);
      }
      const binding = bindSession(state, openSession(state, sessionId));
      bindings.set(sessionId, binding);
      return binding.store;
    },
    endSession(sessionId, how = 'deleted') {
      const binding = bindings.get(sessionId);
      if (binding !== undefined) endSession(binding.session, how);
    },
  };
}

function isResponse(message: JSONRPCMessage): boolean {
  return 'id' in message && ('result' in message || 'error' in message);
}

function bindSession(state: CoreState<JSONRPCMessage>, session: SessionRecord<JSONRPCMessage>): SessionBinding {
  const streamsBySdkId = new Map<string, StreamRecord<JSONRPCMessage>>();
  const sdkIdsByIndex = new Map<number, string>();

  const coreStreamFor = (sdkStreamId: string): StreamRecord<JSONRPCMessage> => {
    const known = streamsBySdkId.get(sdkStreamId);
    if (known !== undefined && (known.status === 'open' || sdkStreamId !== SDK_STANDALONE_STREAM_ID)) return known;
    // The SDK reuses one ID for every standalone GET stream; the core gives each its own stream.
    const stream =
      sdkStreamId === SDK_STANDALONE_STREAM_ID
        ? openStream(state, session, { origin: 'standalone' })
        : openStream(state, session, { origin: 'request', requestKey: `sdk-stream:${sdkStreamId}`, fingerprint: sdkStreamId });
    streamsBySdkId.set(sdkStreamId, stream);
    sdkIdsByIndex.set(stream.index, sdkStreamId);
    return stream;
  };

  const decideCursor = (lastEventId: string): Decision<JSONRPCMessage> =>
    decideRequest(state, { kind: 'get', sessionId: session.id, lastEventId });

  const store: EventStore = {
    async storeEvent(sdkStreamId, message) {
      if (session.status !== 'live') throw new Error(`session ${session.id} has ended; nothing more is stored`);
      const stream = coreStreamFor(sdkStreamId);
      if (stream.status !== 'open') {
        // Only a JSON-RPC batch (removed from the protocol in 2025-06-18) can add to a stream after its response.
        throw new Error(`stream ${sdkStreamId} already completed; batched responses are not supported`);
      }
      const terminal = stream.origin === 'request' && isResponse(message);
      return appendEvent(state, stream, message, { terminal }).id;
    },
    async getStreamIdForEventId(eventId) {
      const decision = decideCursor(eventId);
      // Undefined makes the SDK answer 400 before anything is replayed.
      return decision.kind === 'stream' ? sdkIdsByIndex.get(decision.stream.index) : undefined;
    },
    async replayEventsAfter(lastEventId, { send }) {
      const decision = decideCursor(lastEventId);
      if (decision.kind === 'reject') throw new CursorRefusedError(decision.rule, decision.detail);
      if (decision.kind !== 'stream') throw new CursorRefusedError(decision.rule, 'not a resumption');
      if (decision.reset !== null) {
        // The SDK has no way to send a reset; refusing is the only way not to skip events silently.
        const { reason, missedFromSeq, missedToSeq } = decision.reset;
        throw new CursorRefusedError(decision.rule, `${reason}: events ${missedFromSeq}..${missedToSeq} of this stream are gone`);
      }
      for (const event of decision.replay) await send(event.id, event.message);
      const sdkStreamId = sdkIdsByIndex.get(decision.stream.index);
      if (sdkStreamId === undefined) throw new Error(`stream ${decision.stream.index} has no SDK stream ID`);
      return sdkStreamId;
    },
  };
  return { store, session, streamsBySdkId, sdkIdsByIndex };
}
