// The compiled CLI loads what a command needs and nothing more: `--help` and `targets` load no npm package at all,
// a fuzz of the reference loads no SDK, a fuzz of an SDK target does (the control: the log can see the SDK).
// Runs the compiled bin, so it needs `npm run build` first (npm test does it).

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { packagesOf, runLoggingModules } from './module-log.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SDK_PACKAGES = ['@modelcontextprotocol/sdk', 'zod'];

function bin(...args: string[]) {
  expect(existsSync(`${ROOT}dist/cli/run.js`), 'dist/ is built (npm run build)').toBe(true);
  const run = runLoggingModules(['bin/resumecheck.mjs', ...args], ROOT);
  expect(run.stderr).toBe('');
  return run;
}

describe('the compiled CLI loads only what the command needs', () => {
  it('--help, fuzz --help and --version load no package and none of the simulator', () => {
    for (const args of [['--help'], ['fuzz', '--help'], ['check-store', '--help'], ['--version']]) {
      const run = bin(...args);
      expect(run.status).toBe(0);
      expect(packagesOf(run.modules), args.join(' ')).toEqual([]);
      // sim/config.js is plain constants (the help states the defaults); nothing else of the simulator.
      expect(run.modules.filter((url) => /\/dist\/(sim|model|targets)\//.test(url) && !url.endsWith('/dist/sim/config.js')), args.join(' ')).toEqual([]);
      // The compiled code, not the sources through a TypeScript loader.
      expect(run.modules.some((url) => url.endsWith('/dist/cli/main.js'))).toBe(true);
      expect(run.modules.filter((url) => url.endsWith('.ts'))).toEqual([]);
    }
  });

  it('targets lists the SDK targets without loading the SDK', () => {
    const run = bin('targets');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('sdk-core');
    expect(packagesOf(run.modules)).toEqual([]);
  });

  it('a fuzz of the reference loads no SDK; a fuzz of sdk-core does', () => {
    const reference = bin('fuzz', '--target', 'reference', '--runs', '2', '--json');
    expect(reference.status).toBe(0);
    const loaded = packagesOf(reference.modules);
    expect(loaded).toContain('xstate');
    for (const name of SDK_PACKAGES) expect(loaded).not.toContain(name);
    // --no-corpus: the stored sdk-core traces still fail (known transport defects) and would make the exit 1; and one
    // run of five steps may answer no call, which the default coverage gate would call no verdict (--min-coverage 0).
    const sdk = bin('fuzz', '--target', 'sdk-core', '--runs', '1', '--steps', '5', '--no-corpus', '--min-coverage', '0', '--json');
    expect(sdk.status).toBe(0);
    for (const name of SDK_PACKAGES) expect(packagesOf(sdk.modules)).toContain(name);
  });
});
