// Snapshots of a world between two steps, for the exhaustive search: everything the world holds (the target's state
// through its own ServerInstance.snapshot), put back into the same world object, so the search goes back to a
// prefix's end instead of replaying the prefix. Only for targets that can snapshot their state.
//
// A snapshot keeps, for every object the world reaches, the object itself and a shallow copy of its contents. A
// restore writes each copy back into its own object: the objects the world reached then are the ones it reaches
// again, with the contents they had, and whatever later steps made is no longer reachable. Nothing is allocated per
// restore (a deep copy allocated every object of the world each time, and collecting them cost a fifth of a search).

import type { ServerInstance } from '../targets/target.ts';
import type { World } from './world.ts';

/** Fields of a world that a snapshot does not copy: fixed for the run, or handled apart. */
const NOT_COPIED: ReadonlySet<string> = new Set(['config', 'run', 'checked', 'server', 'serverRandom', 'notes']);

/** How an object's contents were kept: which kind of object, and a shallow copy of what it held. */
const ARRAY = 0;
const MAP = 1;
const SET = 2;
const TYPED = 3;
const PLAIN = 4;

/** A world between two steps. */
export interface WorldSnapshot {
  /** The world's own fields (the objects themselves, whose contents `contents` keeps). */
  readonly fields: Readonly<Record<string, unknown>>;
  /** Every object reached, its kind, and a shallow copy of its contents, as flat triples. */
  readonly contents: readonly unknown[];
  /** The incarnation current then (a later restart boots another one) and its own snapshot. */
  readonly server: ServerInstance;
  readonly serverState: unknown;
  readonly random: unknown;
}

/** True when the world's current incarnation can be snapshot. */
export function canSnapshot(world: World): boolean {
  return world.server.snapshot !== undefined && world.server.restore !== undefined;
}

/** True for a JSON-RPC message: made once by the simulator's tools or a target, never changed, so never kept. */
function isMessage(value: object): boolean {
  return (value as { jsonrpc?: unknown }).jsonrpc === '2.0';
}

/** Records `value` and everything it reaches into `contents` (each object once). */
function keep(value: unknown, seen: Set<object>, contents: unknown[]): void {
  if (value === null || typeof value !== 'object') return;
  const object = value as object;
  if (seen.has(object)) return;
  seen.add(object);
  if (Array.isArray(object)) {
    const items = object.slice();
    contents.push(object, ARRAY, items);
    for (const item of items) if (item !== null && typeof item === 'object') keep(item, seen, contents);
    return;
  }
  if (object instanceof Map) {
    const entries = [...object];
    contents.push(object, MAP, entries);
    for (const [key, item] of entries) {
      keep(key, seen, contents);
      keep(item, seen, contents);
    }
    return;
  }
  if (object instanceof Set) {
    const items = [...object];
    contents.push(object, SET, items);
    for (const item of items) keep(item, seen, contents);
    return;
  }
  if (ArrayBuffer.isView(object)) {
    contents.push(object, TYPED, (object as unknown as { slice(): unknown }).slice());
    return;
  }
  if (isMessage(object)) return;
  const fields = { ...object } as Record<string, unknown>;
  contents.push(object, PLAIN, fields);
  for (const key in fields) {
    const item = fields[key];
    if (item !== null && typeof item === 'object') keep(item, seen, contents);
  }
}

/** Copies the world (between steps: its inbox is empty and nothing is being recorded). */
export function captureWorld(world: World): WorldSnapshot {
  if (world.inbox.length > 0) throw new Error('a world is snapshot only between steps, with its inbox empty');
  const server = world.server;
  if (server.snapshot === undefined) throw new Error('the target cannot snapshot its state');
  const seen = new Set<object>();
  const contents: unknown[] = [];
  const fields: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(world)) {
    if (NOT_COPIED.has(field)) continue;
    fields[field] = value;
    keep(value, seen, contents);
  }
  return { fields, contents, server, serverState: server.snapshot(), random: world.serverRandom.state() };
}

/** Puts a snapshot back into `world` (the same object, which the run's host and monitors hold). */
export function restoreWorld(world: World, snapshot: WorldSnapshot): void {
  const target = world as unknown as Record<string, unknown>;
  const { fields, contents } = snapshot;
  for (const field in fields) target[field] = fields[field];
  for (let at = 0; at < contents.length; at += 3) {
    const object = contents[at];
    const kept = contents[at + 2];
    switch (contents[at + 1]) {
      case ARRAY: {
        const array = object as unknown[];
        const items = kept as unknown[];
        array.length = items.length;
        for (let index = 0; index < items.length; index += 1) array[index] = items[index];
        break;
      }
      case MAP: {
        const map = object as Map<unknown, unknown>;
        map.clear();
        for (const [key, item] of kept as [unknown, unknown][]) map.set(key, item);
        break;
      }
      case SET: {
        const set = object as Set<unknown>;
        set.clear();
        for (const item of kept as unknown[]) set.add(item);
        break;
      }
      case TYPED:
        (object as unknown as { set(source: unknown): void }).set(kept);
        break;
      default:
        // A field added after the snapshot would survive this: the world's objects keep the fields they are made with.
        Object.assign(object as object, kept);
    }
  }
  world.server = snapshot.server;
  snapshot.server.restore!(snapshot.serverState);
  world.serverRandom.restore(snapshot.random);
  world.notes = null;
}
