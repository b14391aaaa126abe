// How the kit server's events reach connections: which connection each stream is attached to, and (for several
// nodes over one storage) when a write by one node becomes visible to the node that holds the connection.
// One node: one delivery of its own. Several nodes: one delivery shared by all is the reference design (a stream's
// events reach whichever node holds its connection, as a store's pub/sub would carry them); one delivery per node
// is the planted `no-handoff` bug (a node delivers only what it wrote itself).

import { type StreamRecord, recordSent, setStreamAttached } from '../core/index.ts';
import type { Frame, TargetHost } from './target.ts';

/** Frames (and ends) waiting for a lagging write to become visible, per deployment at the most. */
const QUEUED_MAX = 100_000;

export interface Attachment<M> {
  readonly stream: StreamRecord<M>;
  /** The node that answered the connection's request, which holds it. */
  readonly node: number;
  /**
   * The server ended the response but the lag still holds the end back: the connection stays open on the wire, so it
   * still carries the stream (a takeover must end it at once), and nothing more is sent on it.
   */
  ending: boolean;
}

/**
 * A frame (null: the end) held back, and the stream position it carries (`stream` null: none), recorded as sent when it
 * goes out.
 */
export type Queued = { readonly due: number; readonly connection: number; readonly frame: Frame | null; readonly stream: StreamRecord<unknown> | null; readonly seq: number };

/** Where a write comes from: the node that made it and the deployment operation it was made in. */
export interface WriteOrigin {
  readonly node: number;
  readonly tick: number;
}

/** A delivery's state as plain parts, for a snapshot (copied by the caller, with the streams it refers to). */
export interface DeliveryParts<M> {
  readonly byStream: Map<StreamRecord<M>, number>;
  readonly byConnection: Map<number, Attachment<M>>;
  readonly queue: Queued[];
  readonly tick: number;
}

/** The attachments of one deployment (or one node), and the queue of frames a store lag holds back. */
export class KitDelivery<M> {
  private readonly byStream = new Map<StreamRecord<M>, number>();
  private readonly byConnection = new Map<number, Attachment<M>>();
  /** Frames held back by the lag, in the order they were written; a connection's frames never overtake each other. */
  private readonly queue: Queued[] = [];
  private tickNow = 0;

  constructor(
    private readonly host: TargetHost,
    /** Operations a write by one node takes to reach the others (0: at once). */
    readonly lagSteps: number,
  ) {}

  /** The deployment operation now being made (counted from 1). */
  get tick(): number {
    return this.tickNow;
  }

  /** One more deployment operation begins: frames whose write has become visible go out first. */
  beginOperation(): void {
    this.tickNow += 1;
    this.flush(this.tickNow);
  }

  /** Every held-back frame goes out now: the store has caught up. */
  catchUp(): void {
    this.flush(Number.MAX_SAFE_INTEGER);
  }

  /** True while some frame waits for its write to become visible. */
  lagging(): boolean {
    return this.queue.length > 0;
  }

  connectionOf(stream: StreamRecord<M>): number | undefined {
    return this.byStream.get(stream);
  }

  streamOf(connection: number): StreamRecord<M> | undefined {
    return this.byConnection.get(connection)?.stream;
  }

  /**
   * Attaches `connection`, held by `node`, to `stream`; the connection attached before it (on any node) is ended, or,
   * with `superseded: 'forget'` (a planted bug), left open with nothing more sent on it.
   */
  attach(stream: StreamRecord<M>, connection: number, node: number, options: { readonly superseded: 'end' | 'forget' } = { superseded: 'end' }): void {
    const previous = this.byStream.get(stream);
    // Who holds a stream is metadata every node reads linearizably: a takeover ends the previous connection at once,
    // and what the lag still held back for it goes to the new one by replay, not to the superseded one.
    if (previous !== undefined && previous !== connection) {
      if (options.superseded === 'forget') this.forget(previous);
      else this.endNow(previous);
    }
    if (stream.origin === 'standalone') {
      // A new standalone stream supersedes the session's previous one; its connection ends too.
      for (const [other, otherConnection] of this.byStream) {
        if (other !== stream && other.origin === 'standalone' && other.sessionIndex === stream.sessionIndex && other.status !== 'open') {
          this.endNow(otherConnection);
        }
      }
    }
    this.byStream.set(stream, connection);
    this.byConnection.set(connection, { stream, node, ending: false });
    setStreamAttached(stream, true);
  }

  /** Stops sending on `connection` without ending it or detaching its stream's current connection. */
  private forget(connection: number): void {
    this.dropQueued(connection);
    this.byConnection.delete(connection);
  }

  /** `connection` no longer carries its stream: the stream is unattached unless another connection took it over. */
  private release(attachment: Attachment<M>, connection: number): void {
    this.byConnection.delete(connection);
    if (this.byStream.get(attachment.stream) === connection) {
      this.byStream.delete(attachment.stream);
      setStreamAttached(attachment.stream, false);
    }
  }

  /** Forgets `connection` without ending it (the client cut it, or its node crashed): nothing more is sent on it. */
  detach(connection: number): void {
    this.dropQueued(connection);
    const attachment = this.byConnection.get(connection);
    if (attachment === undefined) return;
    this.release(attachment, connection);
  }

  /** The connections `node` holds, in attachment order. */
  connectionsOf(node: number): number[] {
    const held: number[] = [];
    for (const [connection, attachment] of this.byConnection) if (attachment.node === node) held.push(connection);
    return held;
  }

  /**
   * Sends `frame` on `connection`: at once when the write is visible to the node holding it (its own write, no lag,
   * or old enough), else when it becomes visible; never before a frame written earlier for the same connection.
   */
  send(connection: number, frame: Frame, origin: WriteOrigin | null, stream: StreamRecord<M> | null = null, seq = 0): void {
    const attachment = this.byConnection.get(connection);
    // After the end nothing goes out on the connection; what it would have carried is not written, so a resume replays it.
    if (attachment?.ending === true) return;
    const visibleAt = origin === null || attachment === undefined || origin.node === attachment.node ? 0 : origin.tick + this.lagSteps;
    const due = Math.max(visibleAt, this.lastDue(connection));
    if (due <= this.tickNow) this.write(connection, frame, stream, seq);
    else this.enqueue({ due, connection, frame, stream, seq });
  }

  /**
   * Ends the response of `connection` after whatever is held back for it, and detaches it when the end goes out: until
   * then the connection is open on the wire and still carries its stream, so a takeover ends it at once rather than
   * opening a second connection beside it.
   */
  end(connection: number): void {
    const attachment = this.byConnection.get(connection);
    if (attachment === undefined || attachment.ending) return;
    const due = this.lastDue(connection);
    if (due <= this.tickNow) {
      this.release(attachment, connection);
      this.host.end(connection);
    } else {
      attachment.ending = true;
      this.enqueue({ due, connection, frame: null, stream: null, seq: 0 });
    }
  }

  /**
   * Closes `connection` now, asking its client to poll back with `retry` (the stream goes on): what the lag still held
   * back for it is dropped, never written, so the client's resume replays it. Waiting for it instead would hold the
   * close back past the operation that asked for it, while the stream's new events could no longer go on the connection.
   */
  closeNow(connection: number, retry: Frame): void {
    if (!this.byConnection.has(connection)) return;
    this.dropQueued(connection);
    this.host.frame(connection, retry);
    this.endNow(connection);
  }

  /** Ends `connection` now, dropping whatever the lag still held back for it (never written, so a resume replays it). */
  private endNow(connection: number): void {
    const attachment = this.byConnection.get(connection);
    if (attachment === undefined) return;
    this.dropQueued(connection);
    this.release(attachment, connection);
    this.host.end(connection);
  }

  /** A frame goes out: only now does the server count its position as written toward the client. */
  private write(connection: number, frame: Frame, stream: StreamRecord<unknown> | null, seq: number): void {
    this.host.frame(connection, frame);
    if (stream !== null) recordSent(stream, seq);
  }

  /** Its state, by reference: a snapshot copies it together with what refers to the same streams. */
  parts(): DeliveryParts<M> {
    return { byStream: this.byStream, byConnection: this.byConnection, queue: this.queue, tick: this.tickNow };
  }

  /**
   * Puts back the tick {@link parts} returned: the maps and the queue it returned are the delivery's own, which a
   * snapshot keeps and writes back in place.
   */
  restoreTick(tick: number): void {
    this.tickNow = tick;
  }

  /** Forgets everything (the whole deployment restarted). */
  clear(): void {
    this.byStream.clear();
    this.byConnection.clear();
    this.queue.length = 0;
  }

  private lastDue(connection: number): number {
    for (let index = this.queue.length - 1; index >= 0; index -= 1) {
      if (this.queue[index]!.connection === connection) return this.queue[index]!.due;
    }
    return 0;
  }

  private enqueue(item: Queued): void {
    if (this.queue.length >= QUEUED_MAX) throw new Error(`assertion: more than ${QUEUED_MAX} frames held back by the store lag`);
    this.queue.push(item);
  }

  private dropQueued(connection: number): void {
    for (let index = this.queue.length - 1; index >= 0; index -= 1) {
      if (this.queue[index]!.connection === connection) this.queue.splice(index, 1);
    }
  }

  private flush(upTo: number): void {
    if (this.queue.length === 0) return;
    const due = this.queue.filter((item) => item.due <= upTo);
    if (due.length === 0) return;
    // Stable: items due at the same operation go out in the order they were written.
    due.sort((left, right) => left.due - right.due);
    const remaining = this.queue.filter((item) => item.due > upTo);
    this.queue.length = 0;
    this.queue.push(...remaining);
    for (const item of due) {
      if (item.frame === null) {
        // The end goes out: only now does the connection stop carrying its stream.
        const attachment = this.byConnection.get(item.connection);
        if (attachment !== undefined) this.release(attachment, item.connection);
        this.host.end(item.connection);
      } else this.write(item.connection, item.frame, item.stream, item.seq);
    }
  }
}
