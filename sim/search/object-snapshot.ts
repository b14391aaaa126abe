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

/** Every object reached from some roots, its kind (a plain object's: its {@link Shape}), and a shallow copy of its contents, as flat triples. */
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
    // Flat, key then value: one array, not one for each entry.
    const entries: unknown[] = [];
    for (const [key, item] of object) entries.push(key, item);
    contents.push(object, MAP, entries);
    for (let index = 0; index < entries.length; index += 1) keep(entries[index], seen, contents);
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
  // Only a shape with a `jsonrpc` field can be a message's: most objects are told apart without reading one.
  const shape = shapeOf(object);
  if (shape.message && isMessage(object)) return;
  const values = shape.read(object);
  contents.push(object, shape, values);
  for (const item of values) if (item !== null && typeof item === 'object') keep(item, seen, contents);
}

/**
 * The fields of one shape of plain object (the same keys in the same order), with a reader and a writer made for
 * exactly them: each reads and writes its fields by name, so V8 compiles them to the accesses of one hidden class,
 * where a loop over any object's keys is a slow lookup per field.
 */
interface Shape {
  readonly keys: readonly string[];
  /** Whether it has a `jsonrpc` field: only then may an object of it be a JSON-RPC message. */
  readonly message: boolean;
  readonly read: (object: object) => unknown[];
  /** Writes each value back where it differs. */
  readonly write: (object: object, values: readonly unknown[]) => void;
}

const SHAPES = new Map<string, Shape>();
const SHAPE_OF = new WeakMap<object, Shape>();

/**
 * Its enumerable keys counted, without listing them. Inherited ones would count too: a plain object has none, and
 * an object with some would only never match its remembered shape, and be looked at again each time.
 */
function fieldCount(object: object): number {
  let count = 0;
  for (const _ in object) count += 1;
  return count;
}

/** Some of an object's own fields as they were (all but those skipped), to be written back by {@link writeFields}. */
export interface KeptFields {
  readonly shape: Shape;
  readonly values: readonly unknown[];
}

const SUBSETS = new Map<string, Shape>();

/** Keeps `object`'s own fields but those in `skip` (the object itself is not recorded, only what it holds). */
export function keepFields(object: object, skip: ReadonlySet<string>): KeptFields {
  const keys = Object.keys(object).filter((key) => !skip.has(key));
  const name = keys.join('\u0000');
  let shape = SUBSETS.get(name);
  if (shape === undefined) {
    shape = shapeFor(keys);
    SUBSETS.set(name, shape);
  }
  return { shape, values: shape.read(object) };
}

/** Writes kept fields back into their object where they differ. */
export function writeFields(object: object, kept: KeptFields): void {
  kept.shape.write(object, kept.values);
}

/** A reader and a writer for exactly these keys. */
function shapeFor(keys: readonly string[]): Shape {
  const fields = keys.map((key) => `o[${JSON.stringify(key)}]`);
  const read = new Function('o', `return [${fields.join(', ')}];`) as Shape['read'];
  const write = new Function('o', 'v', fields.map((field, index) => `if (${field} !== v[${index}]) ${field} = v[${index}];`).join('\n')) as Shape['write'];
  return { keys, message: keys.includes('jsonrpc'), read, write };
}

/** The shape of a plain object: remembered per object (objects keep the fields they are made with; one that gained a field is looked at again). */
function shapeOf(object: object): Shape {
  const known = SHAPE_OF.get(object);
  if (known !== undefined && fieldCount(object) === known.keys.length) return known;
  const keys = Object.keys(object);
  const name = keys.join('\u0000');
  let shape = SHAPES.get(name);
  if (shape === undefined) {
    shape = shapeFor(keys);
    SHAPES.set(name, shape);
  }
  SHAPE_OF.set(object, shape);
  return shape;
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
        // Shortened by popping: setting `length` is a call into the runtime, which may also shrink the array's
        // store, for the next step to grow it again. A shorter array is lengthened by the stores below, in order.
        for (let length = array.length; length > items.length; length -= 1) array.pop();
        for (let index = 0; index < items.length; index += 1) if (array[index] !== items[index]) array[index] = items[index];
        break;
      }
      case MAP:
        restoreMap(object as Map<unknown, unknown>, kept as unknown[]);
        break;
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
      default:
        // A field added after the snapshot would survive this: the world's objects keep the fields they are made with.
        (contents[at + 1] as Shape).write(object as object, kept as unknown[]);
    }
  }
}

/**
 * Puts `entries` (flat: key, value, key, value, ...) back into `map`, in their order. A step mostly adds entries after
 * the kept ones or changes kept values: then the kept keys are still first, in order, and only the values that differ
 * are set again and the entries added are deleted (a Map's clear and refill allocates its table anew each time).
 * Otherwise it is refilled.
 */
function restoreMap(map: Map<unknown, unknown>, entries: readonly unknown[]): void {
  const count = entries.length >>> 1;
  if (map.size >= count) {
    // One pass over the kept entries' places: are the kept keys still first, in order, and do their values differ?
    let index = 0;
    let prefix = true;
    let changed = false;
    for (const [key, item] of map) {
      if (index === count) break;
      if (entries[2 * index] !== key) {
        prefix = false;
        break;
      }
      if (entries[2 * index + 1] !== item) changed = true;
      index += 1;
    }
    if (prefix) {
      if (changed) {
        for (let at = 0; at < entries.length; at += 2) {
          const key = entries[at];
          if (map.get(key) !== entries[at + 1]) map.set(key, entries[at + 1]);
        }
      }
      if (map.size > count) {
        index = 0;
        // Deleting the entry being visited is allowed: iteration goes on with the next.
        for (const key of map.keys()) {
          if (index >= count) map.delete(key);
          index += 1;
        }
      }
      return;
    }
  }
  map.clear();
  for (let at = 0; at < entries.length; at += 2) map.set(entries[at], entries[at + 1]);
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
