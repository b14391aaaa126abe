// A deep copy of plain state (objects, arrays, Maps, Sets, typed arrays) that keeps sharing: an object reached twice
// is copied once, so references between the copied objects point into the copy. Functions are kept as they are, and
// so are JSON-RPC messages, which nothing changes once made. Snapshots of a world and of a kit server are made of it.

/** A memo of what has been copied: one per copy, so that shared objects stay shared. */
export type CopyMemo = Map<object, unknown>;

/** True for a JSON-RPC message: made once by the simulator's tools or a target, never changed, so never copied. */
function isMessage(value: object): boolean {
  return (value as { jsonrpc?: unknown }).jsonrpc === '2.0';
}

/** Copies `value` deeply; `memo` maps originals to their copies (pass the same memo for values that share objects). */
export function deepCopy<T>(value: T, memo: CopyMemo): T {
  if (value === null || typeof value !== 'object') return value;
  const object = value as unknown as object;
  const known = memo.get(object);
  if (known !== undefined) return known as T;
  if (Array.isArray(object)) {
    // A shallow copy first (one fast native copy), then only the elements that are objects are copied again.
    const copy = object.slice();
    memo.set(object, copy);
    for (let index = 0; index < copy.length; index += 1) {
      const item: unknown = copy[index];
      if (item !== null && typeof item === 'object') copy[index] = deepCopy(item, memo);
    }
    return copy as T;
  }
  if (object instanceof Map) {
    const copy = new Map();
    memo.set(object, copy);
    for (const [key, item] of object) copy.set(deepCopy(key, memo), deepCopy(item, memo));
    return copy as T;
  }
  if (object instanceof Set) {
    const copy = new Set();
    memo.set(object, copy);
    for (const item of object) copy.add(deepCopy(item, memo));
    return copy as T;
  }
  if (ArrayBuffer.isView(object)) return (object as unknown as { slice(): T }).slice();
  if (isMessage(object)) return value;
  const prototype = Object.getPrototypeOf(object) as object | null;
  // A plain object is copied by spreading it (V8 keeps its shape), then its object fields are copied again; any
  // other prototype is kept by building the copy on it, field by field.
  const copy = (prototype === Object.prototype ? { ...object } : Object.create(prototype)) as Record<string, unknown>;
  memo.set(object, copy);
  const source = object as Record<string, unknown>;
  for (const key of Object.keys(object)) {
    const item = source[key];
    if (item !== null && typeof item === 'object') copy[key] = deepCopy(item, memo);
    else if (prototype !== Object.prototype) copy[key] = item;
  }
  return copy as T;
}
