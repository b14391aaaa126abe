// node:crypto's randomness seeded for the length of one run of a user's store module (the module target's runs and
// the store level's): `randomUUID` and `randomBytes`, on the module object and in every ES module that imported them
// by name (Node keeps a built-in module's named exports in step with its object through `syncBuiltinESMExports`), so
// a store drawing its event IDs from them is deterministic too.

import { createRequire, syncBuiltinESMExports } from 'node:module';
import seedrandom from 'seedrandom';

const nodeCrypto = createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');

/** Marks the seeded functions, so a second patch (a harness bug) is caught. */
const PATCH_MARK = Symbol.for('resumecheck.node-crypto');

/** The patched node:crypto of one run. */
export interface PatchedNodeCrypto {
  /** Puts node:crypto's own functions back (idempotent; call it in `finally`). */
  restore(): void;
}

function hexOf(word: number): string {
  return (word >>> 0).toString(16).padStart(8, '0');
}

/** `count` bytes from the PRNG. */
function bytesFrom(prng: seedrandom.PRNG, count: number): Buffer {
  const bytes = Buffer.alloc(count);
  for (let index = 0; index < count; index += 4) {
    const word = prng.int32() >>> 0;
    for (let offset = 0; offset < 4 && index + offset < count; offset += 1) bytes[index + offset] = (word >>> (8 * offset)) & 0xff;
  }
  return bytes;
}

/**
 * Replaces node:crypto's `randomUUID` and `randomBytes` with functions seeded from `seed` (each its own PRNG stream)
 * until `restore` is called. `randomBytes` keeps both forms: a Buffer returned, or one given to a callback on the next
 * tick. Patching twice throws.
 */
export function patchNodeCrypto(seed: string): PatchedNodeCrypto {
  if ((nodeCrypto.randomUUID as unknown as Record<symbol, unknown>)[PATCH_MARK] === true) {
    throw new Error('assertion: node:crypto is already patched by another run; restore it (in finally) first');
  }
  const saved = { randomUUID: nodeCrypto.randomUUID, randomBytes: nodeCrypto.randomBytes };
  const uuidPrng = seedrandom(`${seed}/node:crypto/randomUUID`);
  const bytesPrng = seedrandom(`${seed}/node:crypto/randomBytes`);
  const randomUuid = (): string => {
    const hex = hexOf(uuidPrng.int32()) + hexOf(uuidPrng.int32()) + hexOf(uuidPrng.int32()) + hexOf(uuidPrng.int32());
    const variant = ((parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  };
  const randomBytes = (size: number, callback?: (error: Error | null, bytes: Buffer) => void): Buffer | undefined => {
    if (!Number.isInteger(size) || size < 0) return saved.randomBytes(size) as Buffer;
    const bytes = bytesFrom(bytesPrng, size);
    if (callback === undefined) return bytes;
    process.nextTick(() => callback(null, bytes));
    return undefined;
  };
  Object.defineProperty(randomUuid, PATCH_MARK, { value: true });
  const writable = nodeCrypto as unknown as Record<string, unknown>;
  writable['randomUUID'] = randomUuid;
  writable['randomBytes'] = randomBytes;
  syncBuiltinESMExports();
  let restored = false;
  return {
    restore() {
      if (restored) return;
      restored = true;
      writable['randomUUID'] = saved.randomUUID;
      writable['randomBytes'] = saved.randomBytes;
      syncBuiltinESMExports();
    },
  };
}
