#!/usr/bin/env node
// `npm run bench`: compiles the project with tsc (the same compiler and settings for every side of every
// comparison: the engine, the fast-check baseline, the bare loop, the SDK harness) into a fresh temporary directory
// (with this checkout's node_modules linked in, so packages resolve; not inside node_modules, which worktrees may
// share: two benches at once would remove each other's build), then runs bench/run.js there with plain node. Nothing runs under a
// transform at measurement time: tsx's transform (esbuild with names kept) wraps every function created at run
// time, which slowed the fast-check baseline's per-command closures 2.6-3.9x while the engine, written to avoid
// such closures, was barely affected.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = mkdtempSync(join(tmpdir(), 'resumecheck-bench-build-'));
symlinkSync(realpathSync(join(root, 'node_modules')), join(out, 'node_modules'));
const removeOut = () => rmSync(out, { recursive: true, force: true });
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const compiled = spawnSync(
  process.execPath,
  [tsc, '-p', root, '--noEmit', 'false', '--allowImportingTsExtensions', 'false', '--rewriteRelativeImportExtensions', '--outDir', out, '--declaration', 'false', '--sourceMap', 'false'],
  { stdio: 'inherit' },
);
if (compiled.status !== 0) {
  removeOut();
  process.stderr.write('bench: tsc could not compile the project; fix the type errors first (npm run typecheck)\n');
  process.exit(2);
}
// Run from the checkout, so git, traces/corpus and bin/ are the checkout's.
const bench = spawnSync(process.execPath, [join(out, 'bench', 'run.js'), ...process.argv.slice(2)], {
  stdio: 'inherit',
  cwd: root,
  env: { ...process.env, RESUMECHECK_ROOT: root },
});
removeOut();
process.exit(bench.status ?? 1);
