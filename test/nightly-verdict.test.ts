// The nightly job's verdict (.github/scripts/nightly-verdict.mjs) on made-up shard outputs built from the real
// corpus: a known sdk-core defect passes with --fail-on new, a property the corpus has no counterexample of fails,
// and with --fail-on any (the reference) every counterexample fails.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runNode } from './run-node.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SCRIPT = join(ROOT, '.github/scripts/nightly-verdict.mjs');
const CORPUS = join(ROOT, 'traces/corpus');
const scratch = mkdtempSync(join(tmpdir(), 'resumecheck-nightly-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const KNOWN = JSON.parse(readFileSync(join(CORPUS, 'sdk-core--no-hang.json'), 'utf8')) as { target: string; verdict: { property: string } };

/** A shard's output folder holding these traces (and the fuzz command's own JSON, which is no trace). */
function shard(name: string, traces: ReadonlyArray<typeof KNOWN>): string {
  const folder = join(scratch, name);
  mkdirSync(folder);
  traces.forEach((trace, index) => writeFileSync(join(folder, `${trace.target}--${trace.verdict.property}--${index}.json`), JSON.stringify(trace)));
  writeFileSync(join(folder, 'fuzz-output.json'), JSON.stringify({ violations: [] }));
  return folder;
}

const node = runNode;

function verdict(failOn: string, folder: string): ReturnType<typeof node> {
  return node([SCRIPT, '--fail-on', failOn, folder, CORPUS]);
}

describe('the nightly verdict', () => {
  it('passes a known sdk-core defect with --fail-on new, and reports it', async () => {
    const run = await verdict('new', shard('known', [KNOWN]));
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('· known sdk-core no-hang');
    expect(run.stdout).toContain('1 counterexample(s), 0 failing the job');
  });

  it('fails on a property the corpus has no sdk-core counterexample of', async () => {
    const fresh = { ...KNOWN, verdict: { ...KNOWN.verdict, property: 'no-cross-session-delivery' } };
    const run = await verdict('new', shard('new', [KNOWN, fresh]));
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/✗ NEW +sdk-core no-cross-session-delivery/);
    expect(run.stdout).toContain('replay it: npx resumecheck replay');
  });

  it('fails on any counterexample of the reference with --fail-on any; passes an empty shard', async () => {
    expect((await verdict('any', shard('reference', [{ ...KNOWN, target: 'reference' }]))).status).toBe(1);
    expect((await verdict('any', shard('empty', []))).status).toBe(0);
  });

  it('bad input is exit 2', async () => {
    expect((await verdict('sometimes', shard('bad', []))).status).toBe(2);
  });
});
