// How the kit server's events reach connections: which connection each stream is attached to, and (for several
// nodes over one storage) when a write by one node becomes visible to the node that holds the connection.
// One node: one delivery of its own. Several nodes: one delivery shared by all is the reference design (a stream's
// events reach whichever node holds its connection, as a store's pub/sub would carry them); one delivery per node
// is the planted `no-handoff` bug (a node delivers only what it wrote itself).

import type { StreamRecord } from '../core/index.ts';
import type { Frame, TargetHost } from './target.ts';

/** Frames (and ends) waiting for a lagging write to become visible, per deployment at the most. */
const QUEUED_MAX = 100_000;

interface Attachment<M> {
  readonly stream: StreamRecord<M>;
  /** The node that answered the connection's request, which holds it. */
  readonly node: number;
}

type Queued = { readonly due: number; readonly connection: number; readonly frame: Frame | null };

/** Where a write comes from: the node that made it and the deployment operation it was made in. */
export interface WriteOrigin {
  readonly node: number;
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

  /** Attaches `connection`, held by `node`, to `stream`; the connection attached before it (on any node) is ended. */
  attach(stream: StreamRecord<M>, connection: number, node: number): void {
    const previous = this.byStream.get(stream);
    if (previous !== undefined && previous !== connection) this.end(previous);
    if (stream.origin === 'standalone') {
      // A new standalone stream supersedes the session's previous one; its connection ends too.
      for (const [other, otherConnection] of this.byStream) {
        if (other !== stream && other.origin === 'standalone' && other.sessionIndex === stream.sessionIndex && other.status !== 'open') {
          this.end(otherConnection);
        }
      }
    }
    this.byStream.set(stream, connection);
    this.byConnection.set(connection, { stream, node });
  }

  /** Forgets `connection` without ending it (the client cut it, or its node crashed): nothing more is sent on it. */
  detach(connection: number): void {
    this.dropQueued(connection);
    const attachment = this.byConnection.get(connection);
    if (attachment === undefined) return;
    this.byConnection.delete(connection);
    if (this.byStream.get(attachment.stream) === connection) this.byStream.delete(attachment.stream);
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
  send(connection: number, frame: Frame, origin: WriteOrigin | null): void {
    const attachment = this.byConnection.get(connection);
    const visibleAt = origin === null || attachment === undefined || origin.node === attachment.node ? 0 : origin.tick + this.lagSteps;
    const due = Math.max(visibleAt, this.lastDue(connection));
    if (due <= this.tickNow) this.host.frame(connection, frame);
    else this.enqueue({ due, connection, frame });
  }

  /** Ends the response of `connection` (after whatever is held back for it) and detaches it. */
  end(connection: number): void {
    if (!this.byConnection.has(connection)) return;
    const due = this.lastDue(connection);
    const attachment = this.byConnection.get(connection)!;
    this.byConnection.delete(connection);
    if (this.byStream.get(attachment.stream) === connection) this.byStream.delete(attachment.stream);
    if (due <= this.tickNow) this.host.end(connection);
    else this.enqueue({ due, connection, frame: null });
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
      if (item.frame === null) this.host.end(item.connection);
      else this.host.frame(item.connection, item.frame);
    }
  }
}
