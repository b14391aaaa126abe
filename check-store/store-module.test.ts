// Bad store modules are bad input: exit 2 and exactly one line on stderr, naming the module and what is wrong, before
// anything is checked. And module target names round-trip, so `resumecheck replay` finds the module again.

import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { main } from '../cli/main.ts';
import { moduleTargetName, parseModuleTargetName } from '../targets/module/module.target.ts';
import { checkEventStore } from './check-event-store.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FIXTURES = 'check-store/fixtures';

async function run(args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out, err };
}

describe('check-store: bad input exits 2 with one line on stderr', () => {
  const cases: ReadonlyArray<{ readonly name: string; readonly args: string[]; readonly says: RegExp }> = [
    { name: 'a missing file', args: [`${FIXTURES}/no-such-store.ts`], says: /no-such-store\.ts: no such file/ },
    { name: 'a module whose import throws', args: [`${FIXTURES}/throws-on-import.ts`], says: /throws-on-import\.ts: importing it threw: the database URL is not configured/ },
    { name: 'a default export that is not a function', args: [`${FIXTURES}/not-a-function.ts`], says: /the default export is an object, not a factory function/ },
    { name: 'a factory whose result lacks the methods', args: [`${FIXTURES}/returns-empty.ts`], says: /the factory's result lacks storeEvent and replayEventsAfter/ },
    { name: 'an export that does not exist', args: [`${FIXTURES}/planted-stores.ts`, '--export', 'noSuchStore'], says: /has no export named noSuchStore \(its exports: .*listStore/ },
    { name: 'a file that is no module', args: [`${FIXTURES}/../README.md`], says: /must be a \.js, \.mjs or \.ts file/ },
    { name: 'no MODULE', args: [], says: /check-store needs a MODULE/ },
    { name: 'a bad --runs', args: [`${FIXTURES}/core-store.ts`, '--runs', 'many'], says: /--runs takes a whole number/ },
  ];
  for (const { name, args, says } of cases) {
    it(`${name}: ${['check-store', ...args].join(' ')}`, async () => {
      const result = await run(['check-store', ...args]);
      expect(result.code).toBe(2);
      // What the store's module does is found in the worker, after the header (printed before the module is imported);
      // bad flags and paths are found before it.
      expect(result.out.filter((line) => line !== '' && !line.startsWith('resumecheck check-store: '))).toEqual([]);
      expect(result.err).toHaveLength(1);
      expect(result.err[0]).toMatch(/^resumecheck: /);
      expect(result.err[0]).toMatch(says);
      expect(result.err[0]).not.toMatch(/\n|    at /);
    });
  }

  it('the real bin prints one line and no stack trace for a module whose import throws', async () => {
    const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile('node', ['bin/resumecheck.mjs', 'check-store', `${FIXTURES}/throws-on-import.ts`], { cwd: ROOT }, (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr });
      });
    });
    expect(code).toBe(2);
    expect(stdout).toMatch(/^resumecheck check-store: check-store\/fixtures\/throws-on-import\.ts \(default export\)[^\n]*\n\n$/);
    expect(stderr.trimEnd().split('\n')).toEqual([`resumecheck: ${FIXTURES}/throws-on-import.ts: importing it threw: the database URL is not configured`]);
  });

  it('the library throws the same one-line error before checking anything', async () => {
    await expect(checkEventStore(`${FIXTURES}/returns-empty.ts`, { runs: 1 })).rejects.toThrow(/lacks storeEvent and replayEventsAfter/);
    await expect(checkEventStore(() => ({}) as never, { runs: 1 })).rejects.toThrow(/^the factory: the factory's result lacks/);
    await expect(
      checkEventStore(() => {
        throw new Error('no database');
      }, { runs: 1 }),
    ).rejects.toThrow(/the factory threw when called with .*"sessionId":"resumecheck-probe".*: no database/);
  });
});

describe('module target names', () => {
  it('round-trip path, export and --shared', () => {
    for (const [ref, shared] of [
      [{ path: 'check-store/fixtures/core-store.ts', exportName: null }, false],
      [{ path: 'check-store/fixtures/planted-stores.ts', exportName: 'listStore' }, true],
    ] as const) {
      const name = moduleTargetName(ref, { shared });
      expect(name).toBe(`module:${ref.path}${ref.exportName === null ? '' : `#${ref.exportName}`}${shared ? '+shared' : ''}`);
      expect(parseModuleTargetName(name)).toEqual({ ref, shared, durable: false });
    }
    expect(parseModuleTargetName('sdk-core')).toBeNull();
  });

  it('replay of a module target whose file is gone is bad input', async () => {
    const result = await run(['fuzz', '--target', 'module:check-store/fixtures/gone.ts', '--runs', '1']);
    expect(result.code).toBe(2);
    expect(result.err).toEqual(['resumecheck: check-store/fixtures/gone.ts: no such file']);
  });
});
