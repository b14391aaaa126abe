// `resumecheck explore` as a user meets it: bad input is one line and exit 2; explore exits 1 with a written, replayable shortest counterexample and 0 when there is none.

import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runInProcess } from './run-in-process.ts';

const scratch = mkdtempSync(join(tmpdir(), 'resumecheck-explore-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const run = runInProcess;

describe('bad input to explore: exit 2, one line on stderr, nothing on stdout', () => {
  const cases: ReadonlyArray<readonly [string, readonly string[], RegExp]> = [
    ['explore without --target', ['explore', '--depth', '3'], /--target is required/],
    ['explore without --depth', ['explore', '--target', 'reference'], /--depth is required/],
    ['explore --depth 0', ['explore', '--target', 'reference', '--depth', '0'], /--depth/],
    ['explore --depth 99', ['explore', '--target', 'reference', '--depth', '99'], /--depth/],
    ['explore --clients 4', ['explore', '--target', 'reference', '--depth', '2', '--clients', '4'], /--clients/],
    ['explore with an unknown property', ['explore', '--target', 'reference', '--depth', '2', '--property', 'no-such'], /unknown property "no-such"/],
    ['explore with an unknown target', ['explore', '--target', 'nope', '--depth', '2'], /unknown target "nope"/],
    ['explore with an unknown flag', ['explore', '--target', 'reference', '--depth', '2', '--fast'], /fast/],
    ['explore --workers 0', ['explore', '--target', 'reference', '--depth', '2', '--workers', '0'], /--workers takes a whole number from 1 to 16/],
    ['explore --workers 17', ['explore', '--target', 'reference', '--depth', '2', '--workers', '17'], /--workers/],
    ['explore --workers-from 0', ['explore', '--target', 'reference', '--depth', '2', '--workers-from', '0'], /--workers-from/],
  ];
  for (const [what, args, mentions] of cases) {
    it(what, async () => {
      const result = await run([...args]);
      expect(result.code).toBe(2);
      expect(result.out).toEqual([]);
      expect(result.err).toHaveLength(1);
      expect(result.err[0]).toMatch(mentions);
    });
  }
});

describe('resumecheck explore', () => {
  it('finds no-owner-check\'s shortest counterexample (4 steps), writes it and prints its replay command; exit 1', async () => {
    const out = join(scratch, 'explore');
    const result = await run(['explore', '--target', 'no-owner-check', '--depth', '5', '--out', out]);
    expect(result.code).toBe(1);
    const text = result.out.join('\n');
    expect(text).toMatch(/reduction: equal worlds merged/);
    expect(text).toMatch(/explored: \d+ sequences \(\d+ at the deepest depth\), \d+ states judged \(distinct ones short of depth 5, every one at it\), \d+ steps skipped by sleep sets, [\d.]+ s \(\d+ states\/s\)/);
    expect(text).toMatch(/shortest counterexample: 4 steps/);
    expect(text).toMatch(/✗ no-cross-session-delivery violated by no-owner-check/);
    // Each depth as it starts, on stderr, with the worlds its steps start from; none after the one it was found in.
    expect(result.err).toHaveLength(4);
    expect(result.err[0]).toBe('searching depth 1 of 5 (the steps from 1 world of depth 0)');
    expect(result.err[3]).toMatch(/^searching depth 4 of 5 \(the steps from \d+ worlds of depth 3\)$/);
    const files = readdirSync(out);
    expect(files).toHaveLength(1);
    expect(text).toContain(`replay it:     npx resumecheck replay`);
    const replayed = await run(['replay', join(out, files[0]!)]);
    expect(replayed.code).toBe(1);
    expect(replayed.out[0]).toBe('reproduced: no-cross-session-delivery on no-owner-check');
  });

  it('holds on the reference to depth 3, with and without the reduction; exit 0', async () => {
    const reduced = await run(['explore', '--target', 'reference', '--depth', '3', '--json']);
    const full = await run(['explore', '--target', 'reference', '--depth', '3', '--no-reduction', '--json']);
    expect(reduced.code).toBe(0);
    expect(full.code).toBe(0);
    const reducedOutcome = JSON.parse(reduced.out[0]!) as { violation: unknown; states: number; sequences: number; depthCleared: number };
    const fullOutcome = JSON.parse(full.out[0]!) as { violation: unknown; states: number | null; sequences: number };
    expect(reducedOutcome.violation).toBeNull();
    expect(reducedOutcome.depthCleared).toBe(3);
    expect(fullOutcome.states).toBeNull();
    expect(reducedOutcome.sequences).toBeLessThan(fullOutcome.sequences);
  });

  // Depth 5 with the workers from 1 024 worlds on takes the path the default (2 048) takes at depth 6, at a tenth of
  // the work: the narrow depths (up to depth 3, fewer than 1 024 worlds) are expanded here while the workers start,
  // the last (depth 4's worlds, from 1 024 to 2 047 of them) is shared out.
  it('--workers 2 finds and counts what one thread does, and says the wide depths were shared out', async () => {
    const flags = ['explore', '--target', 'reference', '--depth', '5', '--workers-from', '1024'];
    const one = await run([...flags, '--workers', '1', '--json']);
    const two = await run([...flags, '--workers', '2', '--json']);
    const text = await run([...flags, '--workers', '2']);
    expect([one.code, two.code, text.code]).toEqual([0, 0, 0]);
    const strip = (line: string) => {
      // The envelope's config says what was asked (--workers); the outcome is the rest, the same for any number.
      const { elapsedMs: _elapsed, threads, config, ...rest } = JSON.parse(line) as { elapsedMs: number; threads: number; config: Record<string, unknown> };
      const { workers: _workers, ...asked } = config;
      return { threads, rest: { ...rest, config: asked } };
    };
    const [single, shared] = [strip(one.out[0]!), strip(two.out[0]!)];
    expect(single.threads).toBe(1);
    expect(shared.threads).toBe(2);
    expect(shared.rest).toEqual(single.rest);
    expect(text.out.join('\n')).toMatch(/each depth of 1024 worlds or more shared out among 2 threads/);
  });

  it('says "none up to D steps" when every sequence holds, and "budget spent" when a budget stops it first; exit 0', async () => {
    const none = await run(['explore', '--target', 'reference', '--depth', '3']);
    expect(none.code).toBe(0);
    expect(none.out.join('\n')).toMatch(/✓ none up to 3 steps: no sequence of up to 3 steps violates any property/);
    const cut = await run(['explore', '--target', 'reference', '--depth', '5', '--runs-max', '100']);
    expect(cut.code).toBe(0);
    expect(cut.out.join('\n')).toMatch(/\? budget spent \(100 sequences\): no violation up to depth \d, but depth 5 was not cleared/);
  });

  it('says why a target without a state key gets the full search', async () => {
    const result = await run(['explore', '--target', 'counter-ids', '--depth', '2']);
    expect(result.code).toBe(0);
    expect(result.out.join('\n')).toMatch(/reduction: none \(the target offers no state key/);
  });

  it('checks one property alone with --property; a warning fails the search only with --strict', async () => {
    const out = join(scratch, 'only');
    const quiet = await run(['explore', '--target', 'fresh-literal', '--depth', '4', '--property', 'no-lost-result', '--out', out, '--json']);
    expect(quiet.code).toBe(0);
    expect((JSON.parse(quiet.out[0]!) as { violation: { property: string } }).violation.property).toBe('no-lost-result');
    const result = await run(['explore', '--target', 'fresh-literal', '--depth', '4', '--property', 'no-lost-result', '--strict', '--out', out, '--json']);
    expect(result.code).toBe(1);
    const outcome = JSON.parse(result.out[0]!) as { violation: { property: string; length: number } };
    expect(outcome.violation.property).toBe('no-lost-result');
  });
});

describe('explore searches past notes unless asked for one', () => {
  it('reference under 2026-07-28: none up to 3 steps (a re-issued append running again, a note at 2 steps, does not end it)', async () => {
    const result = await run(['explore', '--target', 'reference', '--protocol', '2026-07-28', '--depth', '3', '--out', scratch]);
    expect(result.code).toBe(0);
    expect(result.out.join('\n')).toMatch(/✓ none up to 3 steps/);
  });

  it('a planted dual-era bug behind the note is found at its own depth; --property names the note to search for it', async () => {
    const bug = await run(['explore', '--target', 'modern-disconnect-runs-on', '--protocol', 'mixed', '--depth', '3', '--strict', '--out', scratch]);
    expect(bug.code).toBe(1);
    expect(bug.out.join('\n')).toMatch(/⚠ disconnect-stops-work violated by modern-disconnect-runs-on/);
    const note = await run(['explore', '--target', 'reference', '--protocol', '2026-07-28', '--depth', '3', '--property', 'reissued-call-runs-again', '--out', scratch]);
    expect(note.code).toBe(0);
    expect(note.out.join('\n')).toMatch(/ⓘ reissued-call-runs-again noted on reference/);
  });
});

describe('explore on a client-level target', () => {
  it('seed 1: client-sdk to depth 2 replays every prefix (it says why) and finds the client MUST at its shortest, exit 1', async () => {
    const out = join(scratch, 'client');
    const result = await run(['explore', '--target', 'client-sdk', '--depth', '2', '--seed', '1', '--out', out]);
    // Each depth as it starts, on stderr (the replaying search counts no worlds): the first holds the counterexample.
    expect(result.err).toEqual(['searching depth 1 of 2']);
    expect(result.code).toBe(1);
    expect(result.out[0]).toMatch(/^resumecheck explore: target client-sdk \(the client level: a real client against the reference server\), depth 2/);
    expect(result.out[1]).toBe('reduction: none (a client-level target: its world (a real SDK client) can be neither keyed nor snapshotted, so every prefix is replayed)');
    expect(result.out.join('\n')).toMatch(/shortest counterexample: 1 steps/);
    expect(result.out.join('\n')).toMatch(/✗ client-reinitializes-after-404 violated by client-sdk/);
    expect(readdirSync(out)).toHaveLength(1);
  });

  it('a server property asked of a client target is bad input, one line', async () => {
    const result = await run(['explore', '--target', 'client-sdk', '--depth', '1', '--property', 'no-hang', '--out', scratch]);
    expect(result.code).toBe(2);
    expect(result.err).toEqual(['resumecheck: client-sdk is a client-level target, judged by the client properties (client-resumes-latest, client-reinitializes-after-404, client-reconnects-bounded, client-requests-settle); no-hang is a server property']);
  });
});
