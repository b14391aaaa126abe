// node:crypto seeded for a store run: a store drawing its event IDs from `randomUUID` or `randomBytes` (imported by
// name, as a store module does) gives the same findings under the same trace file names, byte for byte, run after run.

import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkEventStore } from './check-event-store.ts';
import { patchNodeCrypto } from '../targets/module/random.ts';

// Every folder this file writes lies under one scratch folder, removed when the file's tests end.
const scratch = mkdtempSync(join(tmpdir(), 'resumecheck-random-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function draws(): string[] {
  return [randomUUID(), randomUUID(), randomBytes(5).toString('hex')];
}

describe('node:crypto seeded for a store run', () => {
  it('seed "a": the named imports give the same draws each time it is patched, and their own functions after', () => {
    const own = { randomUUID, randomBytes };
    const first = patchNodeCrypto('a');
    const seeded = draws();
    first.restore();
    const second = patchNodeCrypto('a');
    expect(draws()).toEqual(seeded);
    second.restore();
    const other = patchNodeCrypto('b');
    expect(draws()).not.toEqual(seeded);
    other.restore();
    expect({ randomUUID, randomBytes }).toEqual(own);
    expect(draws()).not.toEqual(seeded);
  });

  it('seed 1: two identical checks of a store with randomUUID event IDs write the same trace files, byte for byte', async () => {
    const check = async (): Promise<Record<string, string>> => {
      const out = mkdtempSync(join(scratch, 'out-'));
      const result = await checkEventStore({ path: 'check-store/fixtures/random-id-store.ts', exportName: 'sharedMapStore' }, { runs: 5, seed: '1', out });
      expect(result.holds).toBe(false);
      return Object.fromEntries(readdirSync(out).sort().map((name) => [name, readFileSync(join(out, name), 'utf8')]));
    };
    const first = await check();
    expect(Object.keys(first).length).toBeGreaterThan(1);
    expect(await check()).toEqual(first);
  });
});
