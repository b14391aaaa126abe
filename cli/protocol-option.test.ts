// `--protocol`: a value that is no revision, or a revision the target does not serve, is bad input (exit 2, one
// line); `mixed` on a legacy-only target says it draws legacy revisions only; a note fails nothing.

import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runInProcess } from './run-in-process.ts';

const OUT = mkdtempSync(join(tmpdir(), 'resumecheck-protocol-'));
afterAll(() => rmSync(OUT, { recursive: true, force: true }));

describe('--protocol REV|mixed (seed 1)', () => {
  it('a value that is no revision is bad input: exit 2, one line', async () => {
    for (const command of [['fuzz', '--target', 'reference'], ['explore', '--target', 'reference', '--depth', '2']]) {
      const run = await runInProcess([...command, '--protocol', '2024-11-05', '--out', OUT]);
      expect(run.code).toBe(2);
      expect(run.err).toHaveLength(1);
      expect(run.err[0]).toContain('--protocol takes 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28 or mixed');
    }
  });

  it('2026-07-28 on a legacy-only target is bad input: exit 2, one line naming the target', async () => {
    const run = await runInProcess(['fuzz', '--target', 'no-owner-check', '--protocol', '2026-07-28', '--runs', '5', '--out', OUT]);
    expect(run.code).toBe(2);
    expect(run.err).toEqual(['resumecheck: --protocol 2026-07-28: no-owner-check: the target serves only the legacy era (2025-03-26 to 2025-11-25), not 2026-07-28']);
  });

  it('a legacy revision on a modern-only target (reference-modern) is bad input; by default it speaks 2026-07-28', async () => {
    const run = await runInProcess(['script', 'no-such-file.txt', '--target', 'reference-modern', '--protocol', '2025-06-18']);
    expect(run.code).toBe(2);
    expect(run.err).toEqual(['resumecheck: --protocol 2025-06-18: reference-modern: the target serves only the modern era (2026-07-28), not 2025-06-18']);
    const fuzz = await runInProcess(['fuzz', '--target', 'reference-modern', '--runs', '50', '--no-corpus', '--out', join(OUT, 'modern'), '--property', 'modern-only-405']);
    expect(fuzz.code).toBe(0);
    expect(fuzz.out.some((line) => line.startsWith('✓ no violation in 50 runs'))).toBe(true);
    // Its clients spoke 2026-07-28: none ever initialized.
    expect(fuzz.out.find((line) => line.trimStart().startsWith('client'))).toContain('never: state initialising');
  });

  it('mixed on a legacy-only target draws legacy revisions only, and says so', async () => {
    const run = await runInProcess(['fuzz', '--target', 'no-owner-check', '--protocol', 'mixed', '--runs', '200', '--no-corpus', '--out', OUT]);
    expect(run.out).toContain('mixed: the target serves only the legacy era, so clients draw legacy revisions only');
    expect(run.code).toBe(1);
  });

  it('--first stops at the first violation, which a note is not: past the note to the planted bug, and none on the reference', async () => {
    // The planted bug lets the tool run on: disconnect-stops-work, a SHOULD (a warning), fails the run with --strict ...
    const bug = await runInProcess(['fuzz', '--target', 'modern-disconnect-runs-on', '--protocol', 'mixed', '--first', '--strict', '--no-corpus', '--out', join(OUT, 'first')]);
    expect(bug.out).toContain('1 property violated in 1 runs: disconnect-stops-work');
    expect(bug.code).toBe(1);
    // ... and without it is found, printed and written all the same, exit 0.
    const quiet = await runInProcess(['fuzz', '--target', 'modern-disconnect-runs-on', '--protocol', 'mixed', '--first', '--no-corpus', '--out', join(OUT, 'first')]);
    expect(quiet.out).toContain('nothing that fails the run in 1 runs; ⚠ warning (fails only with --strict): disconnect-stops-work');
    expect(quiet.out.join('\n')).toMatch(/⚠ disconnect-stops-work violated by modern-disconnect-runs-on \(safety; warning: fails only with --strict\)/);
    expect(quiet.code).toBe(0);
    const none = await runInProcess(['fuzz', '--target', 'reference-modern', '--first', '--runs', '200', '--no-corpus', '--out', join(OUT, 'first')]);
    expect(none.out.join('\n')).toMatch(/✓ no violation in 200 runs/);
    expect(none.code).toBe(0);
  });

  it('a note (a re-issued 2026-07-28 append running twice on the reference) is reported and fails nothing: exit 0', async () => {
    const out = join(OUT, 'note');
    const junit = join(OUT, 'note.xml');
    const run = await runInProcess(['fuzz', '--target', 'reference', '--protocol', '2026-07-28', '--runs', '300', '--no-corpus', '--out', out, '--junit', junit]);
    expect(run.out.join('\n')).toContain('noted (permitted by the protocol revision, not a failure): reissued-call-runs-again');
    expect(run.code).toBe(0);
    // Its JUnit case passes: a note is no failure.
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toContain('name="reissued-call-runs-again"');
    expect(xml).toContain('failures="0"');
    const [file] = readdirSync(out).filter((name) => name.includes('reissued-call-runs-again'));
    const replay = await runInProcess(['replay', join(out, file!)]);
    expect(replay.out[0]).toBe('reproduced: reissued-call-runs-again on reference');
    expect(replay.code).toBe(0);
  });

  it('properties --json gives every property its severity and revisions', async () => {
    const run = await runInProcess(['properties', '--json']);
    const rows = (JSON.parse(run.out.join('\n')) as { properties: Array<{ name: string; severity: string; revisions: string[] }> }).properties;
    const byName = new Map(rows.map((row) => [row.name, row]));
    expect(byName.get('disconnect-cancels')).toMatchObject({ severity: 'failure', revisions: ['2026-07-28'] });
    expect(byName.get('status-codes')).toMatchObject({ severity: 'failure', revisions: ['2025-03-26', '2025-06-18', '2025-11-25'] });
    expect(byName.get('reissued-call-runs-again')).toMatchObject({ severity: 'note' });
    for (const row of rows) expect(row.revisions.length, row.name).toBeGreaterThan(0);
  });
});
