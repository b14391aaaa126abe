// The suite's one time limit is vitest.config.ts's hang guard (600 s a test or hook). A test that sets its own, shorter
// one is a wall-clock budget a busy machine misses: check-store's recycling test hit its own 300 s with three suites
// running at once on two cores. This scan keeps every test file on the config's guard.

import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** A test's or hook's own time limit: `{ timeout: N }` in its options, or N after its body (`}, 30_000);`). */
const OWN_GUARD: ReadonlyArray<RegExp> = [/\{\s*timeout:\s*[\d_]+\s*\}/, /^\s*\}\s*,\s*[\d_]+\s*\)\s*;?\s*$/];

function testFiles(directory: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
    const path = join(directory, entry.name);
    if (entry.isDirectory()) files.push(...testFiles(path));
    else if (entry.isFile() && entry.name.endsWith('.test.ts')) files.push(path);
  }
  return files;
}

/** `file:line: text` for each line of a test file that sets its own time limit. */
function ownGuards(file: string, source: string): string[] {
  return source.split('\n').flatMap((text, index) => (OWN_GUARD.some((pattern) => pattern.test(text)) ? [`${file}:${index + 1}: ${text.trim()}`] : []));
}

describe('guard scan: no test sets a time limit of its own', () => {
  const files = testFiles(ROOT).map((path) => relative(ROOT, path));

  it('finds the test files', () => {
    expect(files).toContain(join('test', 'guard-scan.test.ts'));
    expect(files.length).toBeGreaterThan(40);
  });

  it('no test or hook in any test file sets its own timeout', () => {
    // This file's self-test plants both forms in strings; every other test file is scanned.
    const scanned = files.filter((file) => file !== join('test', 'guard-scan.test.ts'));
    expect(scanned.flatMap((file) => ownGuards(file, readFileSync(join(ROOT, file), 'utf8')))).toEqual([]);
  });

  it('self-test: catches both ways of setting one, and leaves a call timeout alone', () => {
    const source = [
      "it('a', { timeout: 60_000 }, async () => {",
      '});',
      "it('b', async () => {",
      '}, 300_000);',
      'beforeAll(async () => {',
      '}, 30000)',
      'const target = createTarget({ callTimeout: 5_000 });',
      'await check({ runs: 60 }, 2);',
    ].join('\n');
    expect(ownGuards('x.test.ts', source)).toEqual([
      "x.test.ts:1: it('a', { timeout: 60_000 }, async () => {",
      'x.test.ts:4: }, 300_000);',
      'x.test.ts:6: }, 30000)',
    ]);
  });
});
