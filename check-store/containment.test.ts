// No input ends in a stack trace, a hang or a silent exit: a store that calls process.exit, busy-loops, throws from a
// timer or leaves handles open gets one verdict line naming the store call and the seed (the check runs in a worker
// thread); a factory that never settles and invalid options are bad input (exit 2, one line); SIGINT stops the CLI
// after its first finding with the summary printed, the traces kept and no temporary file left.

import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../cli/main.ts';
import { checkEventStore } from './check-event-store.ts';
import { StoreModuleError } from '../targets/module/store-module.ts';

// Every folder this file writes lies under one scratch folder, removed when the file's tests end.
const scratch = mkdtempSync(join(tmpdir(), 'resumecheck-containment-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const MISBEHAVING = 'check-store/fixtures/misbehaving-stores.ts';

async function run(args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out, err };
}

function freshDir(): string {
  return mkdtempSync(join(scratch, 'out-'));
}

describe('containment: the store runs in a worker thread, seed 1', () => {
  const cases: ReadonlyArray<{ readonly store: string; readonly verdict: RegExp }> = [
    { store: 'exitingStore', verdict: /^✗ the store ended the checker's thread \(process\.exit\(0\) or the like\) during or after storeEvent\(.*\) in the run of seed 1\.c\.\d+/ },
    { store: 'busyStore', verdict: /^✗ the store blocked the checker's thread for over 2200 ms \(a busy loop or a synchronous wait\) during or after replayEventsAfter\(.*\) in the run of seed 1\.c\.\d+/ },
    // A timer fires after the call that set it: the verdict names the last store call made before the error.
    { store: 'timerThrowsStore', verdict: /^✗ the store's code threw an uncaught error \(lost connection to the database\) during or after (storeEvent|replayEventsAfter|getStreamIdForEventId)\(.*\) in the run of seed 1\.c\.\d+/ },
  ];
  for (const { store, verdict } of cases) {
    it(`${store}: one verdict line naming the call and the seed, exit 1`, async () => {
      const result = await run(['check-store', MISBEHAVING, '--export', store, '--runs', '3', '--call-timeout', '200ms', '--out', freshDir()]);
      expect(result.err).toEqual([]);
      expect(result.code).toBe(1);
      expect(result.out.filter((line) => verdict.test(line))).toHaveLength(1);
    });
  }

  it('a store leaving handles open: a teardown warning, and the check still ends', async () => {
    const result = await run(['check-store', MISBEHAVING, '--export', 'leakyStore', '--runs', '3', '--out', freshDir()]);
    expect(result.code).toBe(0);
    expect(result.out.join('\n')).toMatch(/the store left handles open after its runs ended \(Timeout ×\d+\)/);
  });

  it('a factory that never settles is bad input: one line on stderr, exit 2, only the header on stdout', async () => {
    const result = await run(['check-store', MISBEHAVING, '--export', 'neverResolvingFactory', '--call-timeout', '100ms']);
    expect(result.code).toBe(2);
    expect(result.out).toEqual([expect.stringMatching(/^resumecheck check-store: check-store\/fixtures\/misbehaving-stores\.ts \(export neverResolvingFactory\)/), '']);
    expect(result.err).toEqual([expect.stringMatching(/^resumecheck: check-store\/fixtures\/misbehaving-stores\.ts: the factory did not settle within 100 ms when called with \{/)]);
  });

  it('invalid options: checkEventStore throws one line as the CLI refuses them', async () => {
    for (const runs of [0, -1, Number.NaN, 1.5]) {
      await expect(checkEventStore('check-store/fixtures/core-store.ts', { runs })).rejects.toThrow(StoreModuleError);
    }
    await expect(checkEventStore('check-store/fixtures/core-store.ts', { callTimeoutMs: 0 })).rejects.toThrow(/callTimeoutMs takes a whole number from 1/);
    await expect(checkEventStore('check-store/fixtures/core-store.ts', { seed: 'a b' })).rejects.toThrow(/seed takes/);
    const cli = await run(['check-store', 'check-store/fixtures/core-store.ts', '--runs', '0']);
    expect(cli.code).toBe(2);
    expect(cli.err).toEqual(['resumecheck: --runs takes a whole number from 1 to 1000000, got 0']);
    const timeout = await run(['check-store', 'check-store/fixtures/core-store.ts', '--call-timeout', 'soon']);
    expect(timeout.code).toBe(2);
  });

  it('SIGINT after the first finding, before it is shrunk: the summary is printed, the traces kept, no temporary file left', async () => {
    const out = freshDir();
    const child = spawn(process.execPath, ['bin/resumecheck.mjs', 'check-store', 'check-store/fixtures/planted-stores.ts', '--export', 'reversedStore', '--runs', '100000', '--out', out], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let signalled = false;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      // A finding is shrunk once its phase's runs are made: of 100 000, long after this.
      if (!signalled && /^found \S+ \(contract\) in run \d+/m.test(stdout)) {
        signalled = true;
        child.kill('SIGINT');
      }
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
    expect(signalled).toBe(true);
    expect(code).toBe(1);
    expect(stdout).toMatch(/interrupted: the check stopped early; the \d+ violation\(s\) above were found before it, their traces kept/);
    const files = readdirSync(out);
    expect(files.some((file) => file.endsWith('.json'))).toBe(true);
    expect(files.filter((file) => file.endsWith('.tmp'))).toEqual([]);
    for (const match of stdout.matchAll(/trace written: (\S+)/g)) expect(files).toContain(match[1]!.split('/').at(-1));
  });
});
