// `resumecheck matrix` as a user meets it: each cell what a fuzz of that property alone finds (compared with such a
// fuzz), said in what it measured; the same bytes for the same arguments and for any number of threads; the exit code
// its help states; the envelope with --json; bad input; and a signal that keeps the rows finished (a real process).

import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { PropertyName } from '../properties/names.ts';
import { resolveConfig } from '../sim/config.ts';
import { fuzz } from '../sim/search/fuzz.ts';
import { matrixRowTarget } from '../sim/search/matrix-rows.ts';
import { runInProcess as run } from './run-in-process.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

interface Cell {
  verdict: string;
  runs?: number;
  steps?: number;
  run?: number;
  choices?: number[];
  severity?: string;
  fails?: boolean;
}
interface MatrixDocument {
  schemaVersion: number;
  tool: string;
  command: string;
  config: Record<string, unknown>;
  elapsedMs: number;
  exitCode: number;
  interrupted: string | null;
  properties: string[];
  failing: Array<{ target: string; property: string }>;
  rows: Array<{ target: string; complete: boolean; cells: Record<string, Cell> }>;
}

function parse(out: readonly string[]): MatrixDocument {
  expect(out).toHaveLength(1);
  return JSON.parse(out[0]!) as MatrixDocument;
}

describe('resumecheck matrix (seed 1)', () => {
  it('gives each cell what a fuzz of that property alone finds: the same run, the same shrunk trace, the same runs and steps', async () => {
    const runs = 40;
    const result = await run(['matrix', '--runs', String(runs), '--target', 'no-ledger', '--workers', '1', '--json']);
    const [row] = parse(result.out).rows;
    const target = (await matrixRowTarget('no-ledger'))!;
    const config = resolveConfig({ seed: '1' });
    let violated = 0;
    for (const [property, cell] of Object.entries(row!.cells)) {
      if (cell.verdict === 'n/a') continue;
      const outcome = await fuzz({ target, config, runsMax: runs, timeMs: null, properties: [property as PropertyName], stopAtFirst: true });
      expect({ property, runs: cell.runs, steps: cell.steps }).toEqual({ property, runs: outcome.runs, steps: outcome.steps });
      if (outcome.finding === null) {
        expect({ property, verdict: cell.verdict }).toEqual({ property, verdict: 'not-found' });
        continue;
      }
      violated += 1;
      expect({ property, verdict: cell.verdict, run: cell.run, choices: cell.choices }).toEqual({ property, verdict: 'violated', run: outcome.finding.run, choices: outcome.finding.trace.choices });
    }
    // no-ledger breaks four properties within 40 runs (a wrong chain misses some, or miscounts the runs of the others).
    expect(violated).toBe(4);
  });

  it('says what a cell measured: "not found in N runs (S steps)", never a bare "holds"; a planted bug where it is', async () => {
    const result = await run(['matrix', '--runs', '40', '--target', 'reference', '--target', 'no-ledger', '--workers', '1', '--markdown']);
    const table = result.out.filter((line) => line.startsWith('|'));
    expect(table).toHaveLength(4);
    const columns = table[0]!.split('|').map((cell) => cell.trim());
    const noLedger = table[3]!.split('|').map((cell) => cell.trim());
    expect(noLedger[columns.indexOf('exactly-once-execution')]).toMatch(/^✗ 3 steps \(run 5\)$/);
    expect(noLedger[columns.indexOf('no-hang')]).toMatch(/^not found in 40 runs \(\d+ steps\)$/);
    expect(table[2]).not.toMatch(/✗/);
    expect(result.out.join('\n')).not.toMatch(/holds/);
  });

  it('prints the same bytes with 1 thread and with 2', async () => {
    const args = ['matrix', '--runs', '30', '--target', 'no-ledger', '--target', 'reference/fresh-literal', '--target', 'counter-ids'];
    const one = await run([...args, '--workers', '1']);
    const two = await run([...args, '--workers', '2']);
    expect(two.out).toEqual(one.out);
    expect(one.out.join('\n')).toMatch(/✗/);
  });

  it('exits as its help says: 0 when no cell fails, 1 when one fails at the strictness asked for', async () => {
    // fresh-literal breaks no-silent-gap (a seed's advice) and no-lost-result (a SHOULD), no MUST.
    const args = ['matrix', '--runs', '20', '--target', 'reference/fresh-literal', '--property', 'no-silent-gap', '--property', 'no-lost-result', '--workers', '1'];
    const plain = await run(args);
    expect(plain.code).toBe(0);
    expect(plain.out.at(-1)).toMatch(/^exit 0: no cell fails at --strict=failure/);
    const warning = await run([...args, '--strict']);
    expect(warning.code).toBe(1);
    expect(warning.out.at(-1)).toBe('exit 1: 1 cell fails at --strict=warning: reference/fresh-literal × no-lost-result');
    expect((await run([...args, '--strict=advice'])).code).toBe(1);
    expect((await run(['matrix', '--runs', '20', '--target', 'reference/fresh-literal', '--property', 'no-silent-gap', '--strict=warning', '--workers', '1'])).code).toBe(0);
    const help = await run(['matrix', '--help']);
    expect(help.out.join(' ')).toMatch(/matrix exits 0 when no cell fails, 1 when a cell fails at the strictness asked for/);
  });

  it('writes --json in the envelope every command shares, a row per target, a cell per property', async () => {
    const result = await run(['matrix', '--runs', '30', '--target', 'reference-modern', '--target', 'client-sdk-storm', '--workers', '1', '--json']);
    const document = parse(result.out);
    expect({ schemaVersion: document.schemaVersion, tool: document.tool, command: document.command }).toEqual({ schemaVersion: 1, tool: 'resumecheck', command: 'matrix' });
    expect(document.config).toMatchObject({ targets: ['reference-modern', 'client-sdk-storm'], seed: '1', runsPerCell: 30, workers: 1, strict: 'failure' });
    expect(typeof document.elapsedMs).toBe('number');
    const [modern, storm] = document.rows;
    for (const row of document.rows) expect(Object.keys(row.cells)).toEqual(document.properties);
    // A 2026-07-28-only row: the legacy properties are not observable; the modern ones are.
    expect(modern!.cells['status-codes']!.verdict).toBe('n/a');
    expect(modern!.cells['disconnect-cancels']).toMatchObject({ verdict: 'not-found', runs: 30 });
    // A client row: the server properties are n/a; the planted storm breaks a MUST (client-reinitializes-after-404).
    expect(storm!.cells['no-hang']!.verdict).toBe('n/a');
    expect(storm!.cells['client-reinitializes-after-404']).toMatchObject({ verdict: 'violated', severity: 'failure', fails: true });
    expect(document.failing).toContainEqual({ target: 'client-sdk-storm', property: 'client-reinitializes-after-404', severity: 'failure' });
    expect(document.exitCode).toBe(1);
    expect(result.code).toBe(1);
  });
});

describe('the default budget: what the fuzz finds (seed 1)', () => {
  it('finds sdk-shared × no-cross-session-delivery, as fuzz does at run 409 (the old 300 runs read "holds")', async () => {
    const result = await run(['matrix', '--target', 'sdk-shared', '--property', 'no-cross-session-delivery', '--workers', '1', '--json']);
    const document = parse(result.out);
    expect(document.config['runsPerCell']).toBe(2000);
    expect(document.rows[0]!.cells['no-cross-session-delivery']).toMatchObject({ verdict: 'violated', run: 409, runs: 409 });
    // Charged to the example store shared by every session: one resumecheck/event-store per session holds.
    expect(document.rows[0]!.cells['no-cross-session-delivery']).toMatchObject({ component: { charged: ['store'], name: expect.stringMatching(/^store: 1\.x example InMemoryEventStore .*one shared by every session/) } });
  });
});

describe('bad input to matrix: exit 2, one line on stderr, nothing on stdout', () => {
  const cases: ReadonlyArray<readonly [string, readonly string[], RegExp]> = [
    ['--runs x', ['matrix', '--runs', 'x'], /--runs/],
    ['--runs 0', ['matrix', '--runs', '0'], /--runs/],
    ['--budget (a wall-clock budget: no more)', ['matrix', '--budget', '1s'], /matrix has no option --budget/],
    ['--json and --markdown', ['matrix', '--json', '--markdown'], /--json or --markdown/],
    ['an unknown target', ['matrix', '--target', 'nope'], /unknown target "nope"/],
    ['an unknown property', ['matrix', '--property', 'nope'], /unknown property "nope"/],
    ['a property judged only on the version fault', ['matrix', '--property', 'unsupported-version-400'], /unsupported-version-400 is judged only on the version fault, which the matrix's default runs do not offer: `resumecheck fuzz --version-faults --property unsupported-version-400` checks it/],
    ['--workers 0', ['matrix', '--workers', '0'], /--workers/],
    ['--strict=loud', ['matrix', '--strict=loud'], /--strict takes warning or advice/],
    ['--strict with an unknown level', ['matrix', '--strict=bogus'], /--strict takes/],
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

/**
 * The CLI from its sources in a child process, its stdout and stderr collected. `closed` resolves with its exit code
 * once it has exited and both streams are read to their end ('close', not 'exit': after 'exit' the last output may not
 * have arrived yet).
 */
function startMatrix(args: readonly string[]): { child: ChildProcess; out: () => string; err: () => string; closed: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'cli/run.ts', 'matrix', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, out: () => out, err: () => err, closed };
}

/**
 * Resolves once `text()` (what `stream` has carried so far) has `count` lines matching `pattern`, looking again as
 * each chunk arrives; rejects if the process's output ends first. No clock: vitest.config.ts's guard is the only bound.
 */
function untilLines(stream: NodeJS.ReadableStream, text: () => string, pattern: RegExp, count: number, closed: Promise<unknown>): Promise<void> {
  const reached = (): boolean => text().split('\n').filter((line) => pattern.test(line)).length >= count;
  return new Promise<void>((resolve, reject) => {
    const look = (): void => {
      if (!reached()) return;
      stream.off('data', look);
      resolve();
    };
    // Listening after startMatrix's own collector: each chunk is in text() by the time look() reads it.
    stream.on('data', look);
    look();
    void closed.then(() => {
      stream.off('data', look);
      if (reached()) resolve();
      else reject(new Error(`the process ended before printing ${count} lines matching ${pattern}:\n${text()}`));
    });
  });
}

describe('a signal during matrix keeps the rows finished (a real process)', () => {
  // Two rows that break the property in run 1, then one that holds it and would take hours at this run count.
  const args = ['--property', 'reused-request-id-refused', '--target', 'no-ledger', '--target', 'no-in-flight-check', '--target', 'reference', '--runs', '10000000', '--workers', '2'];

  it('SIGINT after two rows: both printed, the third marked interrupted with what it measured; exit 130', async () => {
    const matrix = startMatrix(args);
    try {
      // Signalled once both finished rows are printed: the state the signal must keep. The third row's search has been
      // handed to a thread by then (a thread that finishes a task takes the next one at once), and at 10 000 000 runs
      // only the signal ends it.
      await untilLines(matrix.child.stdout!, matrix.out, /^ {2}reused-request-id-refused {2}✗ 3 steps \(run 1\)$/, 2, matrix.closed);
      matrix.child.kill('SIGINT');
      expect(await matrix.closed).toBe(130);
      const lines = matrix.out().trimEnd().split('\n');
      expect(lines.slice(1, 5)).toEqual(['no-ledger (planted)', '  reused-request-id-refused  ✗ 3 steps (run 1)', 'no-in-flight-check (planted)', '  reused-request-id-refused  ✗ 3 steps (run 1)']);
      expect(lines[5]).toBe('reference (reference) — interrupted');
      expect(lines[6]).toMatch(/^ {2}reused-request-id-refused {2}interrupted: not found in \d+ runs \(\d+ steps\)$/);
      expect(lines.at(-1)).toBe('interrupted by SIGINT: 2 of 3 rows finished; exit 130');
      expect(matrix.err()).toMatch(/SIGINT: stopping/);
    } finally {
      matrix.child.kill('SIGKILL');
    }
  });

  it('SIGTERM with --json: the document holds the rows finished and says it was interrupted; exit 143', async () => {
    const matrix = startMatrix([...args, '--json']);
    try {
      // With --json the rows go to stdout only at the end; stderr names each row as it finishes.
      await untilLines(matrix.child.stderr!, matrix.err, /^resumecheck matrix: row \S+ finished/, 2, matrix.closed);
      matrix.child.kill('SIGTERM');
      expect(await matrix.closed).toBe(143);
      const document = parse(matrix.out().trimEnd().split('\n'));
      expect(document.interrupted).toBe('SIGTERM');
      expect(document.exitCode).toBe(143);
      expect(document.rows.map((row) => row.complete)).toEqual([true, true, false]);
      expect(document.rows[0]!.cells['reused-request-id-refused']).toMatchObject({ verdict: 'violated', run: 1 });
      expect(document.rows[2]!.cells['reused-request-id-refused']!.verdict).toBe('interrupted');
    } finally {
      matrix.child.kill('SIGKILL');
    }
  });
});
