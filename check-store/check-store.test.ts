// The verdicts check-store gives on the two stores a server author is most likely to plug in: the SDK's example
// InMemoryEventStore fails (session isolation with --shared; ordering and silent skips either way), and
// resumecheck/event-store passes both phases while the SDK transport's own defects are reported apart. Same seed,
// same output and the same trace bytes; every trace written replays.

import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../cli/main.ts';
import { checkEventStore } from './check-event-store.ts';

// Every folder this file writes lies under one scratch folder, removed when the file's tests end.
const scratch = mkdtempSync(join(tmpdir(), 'resumecheck-check-store-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const RUNS = '60';
const SEED = '1';
const EXAMPLE = 'check-store/fixtures/sdk-example-store.ts';
const CORE = 'check-store/fixtures/core-store.ts';

async function run(args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out, err };
}

function freshDir(): string {
  return mkdtempSync(join(scratch, 'out-'));
}

describe(`check-store, seed ${SEED}, ${RUNS} runs per phase`, () => {
  it('the SDK example InMemoryEventStore fails with --shared: session isolation, said to be unavoidable when shared', async () => {
    const out = freshDir();
    const result = await run(['check-store', EXAMPLE, '--shared', '--runs', RUNS, '--seed', SEED, '--out', out, '--json']);
    expect(result.err).toEqual([]);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.out[0]!) as { holds: boolean; violations: Array<{ phase: string; property: string; severity: string; note: string | null; trace: string; replay: string }> };
    expect(report.holds).toBe(false);
    const isolation = report.violations.find((violation) => violation.property === 'session-isolation');
    expect(isolation?.phase).toBe('contract');
    expect(isolation?.note).toMatch(/any store that replays at all fails session isolation/);
    expect(report.violations.map((violation) => violation.phase)).toContain('end-to-end');
    // Every trace written replays to its verdict by the command printed for it, which names the module (a trace is data:
    // what it names is imported only when the command line names it): replay --target module:, for either phase.
    for (const violation of report.violations) {
      expect(violation.replay).toBe(`npx resumecheck replay ${violation.trace} --target module:${EXAMPLE}+shared`);
      const replayed = await run(violation.replay.split(' ').slice(2));
      // Advice (no-silent-skip: the project's own rule) is reproduced too, and fails the replay only with --strict=advice.
      expect(replayed.code).toBe(violation.severity === 'failure' ? 1 : 0);
      expect(replayed.out[0]).toBe(`reproduced: ${violation.property} on module:${EXAMPLE}+shared`);
    }
  });

  it('the SDK example InMemoryEventStore fails without --shared too, but not on session isolation', async () => {
    const result = await run(['check-store', EXAMPLE, '--runs', RUNS, '--seed', SEED, '--out', freshDir()]);
    expect(result.code).toBe(1);
    const text = result.out.join('\n');
    expect(text).toMatch(/^✗ replay-exact \(contract\)/m);
    expect(text).toMatch(/the store returned "" instead of the stream's ID "_GET_stream"/);
    expect(text).toMatch(/^✗ [a-z-]+ \(end-to-end\)/m);
    expect(text).not.toMatch(/session-isolation/);
    expect(result.out.at(-1)).toMatch(/^✗ the store fails: /);
  });

  it('resumecheck/event-store passes both phases; the transport defects are reported and do not fail it', async () => {
    // As in README.md: a file URL, imported afresh for each simulated run.
    const result = await checkEventStore(new URL('./fixtures/core-store.ts', import.meta.url), { runs: Number(RUNS), seed: SEED });
    expect(result.violations).toEqual([]);
    expect(result.holds).toBe(true);
    expect(result.contract.runs).toBe(Number(RUNS));
    expect(result.endToEnd).toMatchObject({ runs: Number(RUNS), skipped: null });
    expect(result.transportDefects.map((defect) => defect.property)).toContain('exactly-once-execution');
    // The CLI prints the same verdict (fewer runs here: the function is the same).
    const cli = await run(['check-store', CORE, '--runs', '10', '--seed', SEED]);
    expect(cli.code).toBe(0);
    expect(cli.out).toContain("transport defects, not the store's (sdk-core, resumecheck's own store in the same SDK transport, violates them on the same actions):");
    expect(cli.out.at(-1)).toBe('✓ no store violation: the contract held in 10 runs, and end to end the store caused no failure in 10 runs');
  });

  it(`the same seed gives the same output and byte-identical traces (seed ${SEED})`, async () => {
    const first = freshDir();
    const second = freshDir();
    const one = await run(['check-store', EXAMPLE, '--shared', '--runs', '20', '--seed', SEED, '--out', first]);
    const two = await run(['check-store', EXAMPLE, '--shared', '--runs', '20', '--seed', SEED, '--out', second]);
    expect(one.code).toBe(1);
    const normalise = (lines: string[], dir: string) => lines.map((line) => line.replaceAll(basename(dir), '<out>'));
    expect(normalise(two.out, second)).toEqual(normalise(one.out, first));
    const files = readdirSync(first).sort();
    expect(files.length).toBeGreaterThan(1);
    expect(readdirSync(second).sort()).toEqual(files);
    for (const file of files) expect(readFileSync(join(second, file), 'utf8')).toBe(readFileSync(join(first, file), 'utf8'));
  });
});
