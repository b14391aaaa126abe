// Snapshots of plain state that are put back into the same objects: for every object reached, the object itself and
// a shallow copy of its contents; a restore writes each copy back into its own object. The objects reached then are
// the ones reached again, with the contents they had, and whatever was made later is no longer reachable. Nothing is
// allocated per restore (a deep copy allocates every object each time, and collecting them cost a fifth of a search).
// JSON-RPC messages, which nothing changes once made, are kept as they are.

/** How an object's contents were kept: which kind of object, and a shallow copy of what it held. */
const ARRAY = 0;
const MAP = 1;
const SET = 2;
const TYPED = 3;
const PLAIN = 4;

/** Every object reached from some roots, its kind, and a shallow copy of its contents, as flat triples. */
export type ObjectSnapshot = readonly unknown[];

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

/** Keeps everything `roots` reach (each object once), to be written back by {@link writeBack}. */
export function keepObjects(roots: readonly unknown[]): ObjectSnapshot {
  const seen = new Set<object>();
  const contents: unknown[] = [];
  for (const root of roots) keep(root, seen, contents);
  return contents;
}

/**
 * Writes every kept object's contents back into it. Most objects are as they were kept (a step changes a few), so
 * each is compared first and written only where it differs: reading costs less than writing every field back,
 * which also pays the collector's write barrier for each stored reference.
 */
export function writeBack(contents: ObjectSnapshot): void {
  for (let at = 0; at < contents.length; at += 3) {
    const object = contents[at];
    const kept = contents[at + 2];
    switch (contents[at + 1]) {
      case ARRAY: {
        const array = object as unknown[];
        const items = kept as unknown[];
        if (array.length !== items.length) array.length = items.length;
        for (let index = 0; index < items.length; index += 1) if (array[index] !== items[index]) array[index] = items[index];
        break;
      }
      case MAP: {
        const map = object as Map<unknown, unknown>;
        const entries = kept as [unknown, unknown][];
        if (sameEntries(map, entries)) break;
        map.clear();
        for (const [key, item] of entries) map.set(key, item);
        break;
      }
      case SET: {
        const set = object as Set<unknown>;
        const items = kept as unknown[];
        if (sameItems(set, items)) break;
        set.clear();
        for (const item of items) set.add(item);
        break;
      }
      case TYPED:
        (object as unknown as { set(source: unknown): void }).set(kept);
        break;
      default: {
        // A field added after the snapshot would survive this: the world's objects keep the fields they are made with.
        const target = object as Record<string, unknown>;
        const fields = kept as Record<string, unknown>;
        for (const key in fields) if (target[key] !== fields[key]) target[key] = fields[key];
      }
    }
  }
}

/** True when `map` holds exactly `entries`, in their order. */
function sameEntries(map: Map<unknown, unknown>, entries: readonly (readonly [unknown, unknown])[]): boolean {
  if (map.size !== entries.length) return false;
  let index = 0;
  for (const [key, item] of map) {
    const entry = entries[index]!;
    if (entry[0] !== key || entry[1] !== item) return false;
    index += 1;
  }
  return true;
}

/** True when `set` holds exactly `items`, in their order. */
function sameItems(set: Set<unknown>, items: readonly unknown[]): boolean {
  if (set.size !== items.length) return false;
  let index = 0;
  for (const item of set) {
    if (items[index] !== item) return false;
    index += 1;
  }
  return true;
}
