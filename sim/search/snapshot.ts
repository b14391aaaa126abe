// Snapshots of a world between two steps, for the exhaustive search: everything the world holds (the target's state
// through its own ServerInstance.snapshot), put back into the same world object, so the search goes back to a
// prefix's end instead of replaying the prefix. Only for targets that can snapshot their state. The world's objects are kept and written back in place (sim/search/object-snapshot.ts).

import type { ServerInstance } from '../../targets/target.ts';
import { type KeptFields, type ObjectSnapshot, keepFields, keepObjects, writeBack, writeFields } from './object-snapshot.ts';
import type { World } from '../world.ts';

/** Fields of a world that a snapshot does not copy: fixed for the run, or handled apart. */
const NOT_COPIED: ReadonlySet<string> = new Set(['config', 'run', 'checked', 'server', 'serverRandom', 'notes']);

/** A world between two steps. */
export interface WorldSnapshot {
  /** The world's own fields (the objects themselves, whose contents `contents` keeps). */
  readonly fields: KeptFields;
  /** Every object the world reaches, with its contents then. */
  readonly contents: ObjectSnapshot;
  /** The incarnation current then (a later restart boots another one) and its own snapshot. */
  readonly server: ServerInstance;
  readonly serverState: unknown;
  readonly random: unknown;
}

/** True when the world's current incarnation can be snapshot. */
export function canSnapshot(world: World): boolean {
  return world.server.snapshot !== undefined && world.server.restore !== undefined;
}

/** Copies the world (between steps: its inbox is empty and nothing is being recorded). */
export function captureWorld(world: World): WorldSnapshot {
  if (world.inbox.length > 0) throw new Error('a world is snapshot only between steps, with its inbox empty');
  const server = world.server;
  if (server.snapshot === undefined) throw new Error('the target cannot snapshot its state');
  const fields = keepFields(world, NOT_COPIED);
  return { fields, contents: keepObjects(fields.values), server, serverState: server.snapshot(), random: world.serverRandom.state() };
}

/** Puts a snapshot back into `world` (the same object, which the run's host and monitors hold). */
export function restoreWorld(world: World, snapshot: WorldSnapshot): void {
  writeFields(world, snapshot.fields);
  writeBack(snapshot.contents);
  world.server = snapshot.server;
  snapshot.server.restore!(snapshot.serverState);
  world.serverRandom.restore(snapshot.random);
  world.notes = null;
}
