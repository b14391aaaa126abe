// A worker started from the TypeScript sources runs the compiled build instead when dist/ is current: the same code,
// loaded without tsx's transform. Checked on a package laid out in a scratch folder, its files' times set by hand.

import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { compiledTwin } from './worker-thread.ts';

const scratch = mkdtempSync(join(tmpdir(), 'resumecheck-twin-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
afterEach(() => delete process.env['RESUMECHECK_WORKER_SOURCES']);

/** A package with sim/worker.ts and sim/helper.ts, built into dist/ at second 1000; `edited` sources changed at 2000. */
function layout(name: string, edited: readonly string[] = [], built = true): string {
  const root = join(scratch, name);
  mkdirSync(join(root, 'sim'), { recursive: true });
  writeFileSync(join(root, 'package.json'), '{}');
  for (const file of ['worker', 'helper']) {
    writeFileSync(join(root, 'sim', `${file}.ts`), '');
    utimesSync(join(root, 'sim', `${file}.ts`), 500, 500);
    if (built) {
      mkdirSync(join(root, 'dist', 'sim'), { recursive: true });
      writeFileSync(join(root, 'dist', 'sim', `${file}.js`), '');
      utimesSync(join(root, 'dist', 'sim', `${file}.js`), 1000, 1000);
    }
  }
  for (const file of edited) utimesSync(join(root, 'sim', `${file}.ts`), 2000, 2000);
  return root;
}

const worker = (root: string): URL => pathToFileURL(join(root, 'sim', 'worker.ts'));

describe('a worker from the sources runs the compiled build when dist/ is current', () => {
  it('dist/ newer than every source: the compiled twin', () => {
    const root = layout('current');
    expect(compiledTwin(worker(root))?.href).toBe(pathToFileURL(join(root, 'dist', 'sim', 'worker.js')).href);
  });

  it('any source changed after its build, the worker module or one it may import: the sources', () => {
    expect(compiledTwin(worker(layout('worker-edited', ['worker'])))).toBeNull();
    expect(compiledTwin(worker(layout('helper-edited', ['helper'])))).toBeNull();
  });

  it('no dist/, or RESUMECHECK_WORKER_SOURCES=1: the sources', () => {
    expect(compiledTwin(worker(layout('unbuilt', [], false)))).toBeNull();
    const root = layout('forced');
    process.env['RESUMECHECK_WORKER_SOURCES'] = '1';
    expect(compiledTwin(worker(root))).toBeNull();
  });
});
