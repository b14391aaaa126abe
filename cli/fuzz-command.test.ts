// The fuzz command for CI and long runs: a summary and a JUnit file, worker threads, stored counterexamples
// replayed first, --min-coverage, and SIGINT ending a time-budgeted run with everything found kept.

import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runInProcess } from './run-in-process.ts';
import { runNode } from '../test/run-node.ts';
import { PROPERTY_NAMES } from '../properties/index.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'resumecheck-fuzz-cli-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const run = runInProcess;

/**
 * Checks that `text` is well-formed XML as far as a JUnit file can be: one root, every element closed in order,
 * quoted attributes, no stray `<` or `&` in text. Returns the problems found (none for a good file).
 */
function xmlProblems(text: string): string[] {
  const problems: string[] = [];
  const body = text.replace(/^<\?xml[^?]*\?>\s*/, '');
  const open: string[] = [];
  let roots = 0;
  const token = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="[^"<]*")*)\s*(\/?)>|([^<]+)|(<)/gy;
  for (let match = token.exec(body); match !== null; match = token.exec(body)) {
    const [, closing, name, , selfClosing, textPart, stray] = match;
    if (stray !== undefined) {
      problems.push(`a stray < at ${match.index}`);
      break;
    }
    if (textPart !== undefined) {
      if (open.length === 0 && textPart.trim() !== '') problems.push('text outside the root element');
      if (/&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/.test(textPart)) problems.push(`a bare & in ${JSON.stringify(textPart.slice(0, 40))}`);
      continue;
    }
    if (closing === '/') {
      if (open.pop() !== name) problems.push(`</${name}> closes ${open.at(-1) ?? 'nothing'}`);
      continue;
    }
    if (open.length === 0) roots += 1;
    if (selfClosing !== '/') open.push(name!);
  }
  if (open.length > 0) problems.push(`unclosed: ${open.join(', ')}`);
  if (roots !== 1) problems.push(`${roots} root elements`);
  return problems;
}

describe('the XML check used below can fail', () => {
  it('finds an unclosed element, a bare & and a stray <', () => {
    expect(xmlProblems('<a><b></a>')).not.toEqual([]);
    expect(xmlProblems('<a>x & y</a>')).not.toEqual([]);
    expect(xmlProblems('<a>x < y</a>')).not.toEqual([]);
    expect(xmlProblems('<?xml version="1.0"?>\n<a x="1"><b/>t &amp; u</a>\n')).toEqual([]);
  });
});

interface Summary {
  schemaVersion: number;
  tool: string;
  command: string;
  config: { target: string; workers: number; seed: string };
  elapsedMs: number;
  runs: number;
  steps: number;
  interrupted: string | null;
  coverage: { percent: number } | null;
  regressions: Array<{ property: string; trace: string }>;
  violations: Array<{ property: string; shrunkLength: number; shrunk: boolean; known: boolean; trace: string; run: number }>;
}

describe('fuzz --workers 2 --summary --junit (seed 1)', () => {
  it('on a planted target: exit 1, a summary with every finding and a valid JUnit file failing the broken property', async () => {
    const out = join(scratch, 'planted-found');
    const summary = join(scratch, 'planted-summary.json');
    const junit = join(scratch, 'planted-junit.xml');
    const result = await run(['fuzz', '--target', 'no-owner-check', '--runs', '400', '--workers', '2', '--out', out, '--no-corpus', '--summary', summary, '--junit', junit]);
    expect(result.code).toBe(1);
    const document = JSON.parse(readFileSync(summary, 'utf8')) as Summary;
    expect([document.schemaVersion, document.tool, document.command, document.config.workers]).toEqual([1, 'resumecheck', 'fuzz', 2]);
    expect(document.runs).toBe(400);
    expect(document.coverage?.percent).toBeGreaterThan(50);
    expect(document.violations.map((violation) => violation.property)).toContain('no-cross-session-delivery');
    for (const violation of document.violations) {
      expect(violation.shrunk).toBe(true);
      expect(existsSync(violation.trace), violation.trace).toBe(true);
    }
    // Only the shrunk traces remain: each unshrunk one written when found was replaced.
    expect(readdirSync(out).sort()).toEqual(document.violations.map((violation) => violation.trace.split('/').at(-1)).sort());
    const xml = readFileSync(junit, 'utf8');
    expect(xmlProblems(xml)).toEqual([]);
    expect(xml).toMatch(/<testcase classname="no-owner-check" name="no-cross-session-delivery" time="0">\s*<failure /);
    // One test case per property per target.
    expect(xml.match(/<testcase /g)).toHaveLength(PROPERTY_NAMES.length);
  });

  it('on an SDK target: each finding names the component it is charged to (summary, JUnit, printed report); a planted target\'s names none', async () => {
    const summary = join(scratch, 'sdk-summary.json');
    const junit = join(scratch, 'sdk-junit.xml');
    const result = await run(['fuzz', '--target', 'sdk2-example', '--runs', '60', '--workers', '1', '--out', join(scratch, 'sdk-found'), '--no-corpus', '--summary', summary, '--junit', junit]);
    expect(result.code).toBe(1);
    type Charged = { property: string; component: { charged: string[]; name: string; evidence: string } | null };
    const violations = (JSON.parse(readFileSync(summary, 'utf8')) as { violations: Charged[] }).violations;
    expect(violations.length).toBeGreaterThan(2);
    for (const violation of violations) expect(violation.component?.charged.length, violation.property).toBeGreaterThan(0);
    // The example store's same-millisecond order is the store's; a re-sent request ID running again is the transport's.
    const byProperty = new Map(violations.map((violation) => [violation.property, violation.component!]));
    expect(byProperty.get('well-formed-messages')?.charged).toEqual(['store']);
    expect(byProperty.get('exactly-once-execution')?.charged).toEqual(['transport']);
    expect(byProperty.get('exactly-once-execution')?.name).toBe('transport: @modelcontextprotocol/server@2.4.0');
    expect(readFileSync(junit, 'utf8')).toMatch(/charged to store: 2\.x repository example InMemoryEventStore/);
    expect(result.out.join('\n')).toMatch(/^ {2}charged to store: .* — the same \d+ steps hold with resumecheck\/event-store in place of the store/m);
    const planted = join(scratch, 'planted-summary.json');
    for (const violation of (JSON.parse(readFileSync(planted, 'utf8')) as { violations: Charged[] }).violations) expect(violation.component).toBeNull();
  });

  it('on the reference: exit 0, a summary without violations and a JUnit file without failures', async () => {
    const summary = join(scratch, 'reference-summary.json');
    const junit = join(scratch, 'reference-junit.xml');
    const result = await run(['fuzz', '--target', 'reference', '--runs', '400', '--workers', '2', '--out', join(scratch, 'reference-found'), '--summary', summary, '--junit', junit]);
    expect(result.code).toBe(0);
    expect((JSON.parse(readFileSync(summary, 'utf8')) as Summary).violations).toEqual([]);
    const xml = readFileSync(junit, 'utf8');
    expect(xmlProblems(xml)).toEqual([]);
    expect(xml).not.toContain('<failure');
  });

  it('--json prints the same envelope the summary holds', async () => {
    const result = await run(['fuzz', '--target', 'reference', '--runs', '50', '--out', join(scratch, 'json-found'), '--json']);
    expect(result.code).toBe(0);
    expect(result.out).toHaveLength(1);
    const document = JSON.parse(result.out[0]!) as Summary;
    expect([document.schemaVersion, document.tool, document.command, document.config.target, document.runs]).toEqual([1, 'resumecheck', 'fuzz', 'reference', 50]);
    expect(typeof document.elapsedMs).toBe('number');
  });

  it('a --summary or --junit that cannot be written is bad input before the run: exit 2, one line, nothing run', async () => {
    const aFile = join(scratch, 'a-file.txt');
    writeFileSync(aFile, 'not a directory');
    for (const flag of ['--summary', '--junit']) {
      for (const path of [join(aFile, 's.json'), scratch, '']) {
        const result = await run(['fuzz', '--target', 'reference', '--runs', '50', flag, path]);
        expect(result.code, `${flag} ${path}`).toBe(2);
        expect(result.err).toHaveLength(1);
        expect(result.err[0]).toContain(flag);
        expect(result.out).toEqual([]);
      }
    }
  });
});

describe('the failing-example database (seed 1)', () => {
  it("a second fuzz into the same --out replays the first one's traces: still failing, reported with their files", async () => {
    const out = join(scratch, 'database-found');
    const args = ['fuzz', '--target', 'no-owner-check', '--runs', '300', '--out', out, '--no-corpus', '--json'];
    const first = JSON.parse((await run(args)).out[0]!) as Summary;
    expect(first.regressions).toEqual([]);
    expect(first.violations.length).toBeGreaterThan(0);
    const second = await run(args);
    expect(second.code).toBe(1);
    const again = JSON.parse(second.out[0]!) as Summary;
    expect(again.regressions.map((regression) => [regression.property, regression.trace]).sort()).toEqual(first.violations.map((violation) => [violation.property, violation.trace]).sort());
    // Known properties are not shrunk again and nothing new is written.
    for (const violation of again.violations) expect(violation.known).toBe(true);
    expect(readdirSync(out)).toHaveLength(first.violations.length);
    // As text, each known one still shows its counterexample: the stored trace's steps and its replay command.
    const text = await run(args.filter((arg) => arg !== '--json'));
    expect(text.code).toBe(1);
    for (const violation of first.violations) {
      const header = text.out.findIndex((line) => line.startsWith('── found') && line.includes(`${violation.trace} still fails`) && line.endsWith('its stored counterexample:'));
      expect(header, violation.trace).toBeGreaterThanOrEqual(0);
      expect(text.out[header + 1]).toMatch(new RegExp(`^[✗⚠·] ${violation.property} violated by no-owner-check`));
      expect(text.out.slice(header).some((line) => /^ {2}1\. /.test(line))).toBe(true);
      expect(text.out.slice(header)).toContain(`replay it:     npx resumecheck replay ${violation.trace}`);
    }
  });
});

describe('--min-coverage', () => {
  it('fails a run that reaches less (exit 1) and passes one that reaches enough (exit 0)', async () => {
    const out = join(scratch, 'coverage-found');
    const low = await run(['fuzz', '--target', 'reference', '--runs', '3', '--out', out, '--min-coverage', '99']);
    expect(low.code).toBe(1);
    expect(low.out.join('\n')).toMatch(/coverage .*% is below --min-coverage 99%/);
    expect((await run(['fuzz', '--target', 'reference', '--runs', '3', '--out', out, '--min-coverage', '5'])).code).toBe(0);
    expect((await run(['fuzz', '--target', 'reference', '--runs', '3', '--min-coverage', '101'])).code).toBe(2);
  });
});

/**
 * Resolves with the first line of a child's stdout that matches `pattern`; rejects if the child exits first. No clock:
 * the test's own guard (vitest.config.ts) is the only bound.
 */
function waitForLine(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      const line = buffer.split('\n').find((candidate) => pattern.test(candidate));
      if (line !== undefined) resolve(line);
    });
    child.on('exit', (code) => reject(new Error(`exited (${String(code)}) before a line matched ${pattern}; got:\n${buffer}`)));
  });
}

describe("a user's store module on several nodes (seed 1)", () => {
  const fixture = (file: string): string => `module:${join(ROOT, 'check-store', 'fixtures', file)}+shared`;

  it('each node an SDK app over the one shared store: the example store is judged as on one node, the correct one fails nothing', async () => {
    // The example store replays its priming placeholder `{}` as an event, on one node (the corpus) and on two.
    const example = await run(['fuzz', '--target', fixture('sdk-example-store.ts'), '--nodes', '2', '--balancer', 'sticky', '--runs', '40', '--property', 'well-formed-messages', '--first', '--workers', '1', '--no-corpus', '--out', join(scratch, 'nodes')]);
    expect(example.code).toBe(1);
    expect(example.out).toContainEqual(expect.stringMatching(/^✗ well-formed-messages violated by module:.*sdk-example-store\.ts\+shared@2:sticky \(safety\)$/));
    const correct = await run(['fuzz', '--target', fixture('core-store.ts'), '--nodes', '2', '--balancer', 'sticky', '--runs', '20', '--workers', '1', '--no-corpus', '--out', join(scratch, 'nodes')]);
    expect(correct.code).toBe(0);
    expect(correct.out.join('\n')).not.toMatch(/took its worker thread down|assertion/);
  });

  it('from a folder without node_modules, run from the sources: the worker finds its TypeScript loader and makes the runs (one property, which the store holds)', async () => {
    const away = mkdtempSync(join(tmpdir(), 'resumecheck-away-'));
    try {
      const loader = join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs');
      // On the sources even when dist/ is current (sim/search/worker-thread.ts would start it on the compiled build).
      // One property the store holds: its 5 runs are made in the worker as before, and nothing is found, so no
      // advice or warning of the SDK's is shrunk there (those shrinks were four fifths of the command's time).
      const result = await runNode(['--import', loader, join(ROOT, 'cli', 'run.ts'), 'fuzz', '--target', fixture('core-store.ts'), '--runs', '5', '--property', 'well-formed-messages', '--workers', '1', '--no-corpus', '--out', join(away, 'found')], away, { RESUMECHECK_WORKER_SOURCES: '1' });
      expect(result.stdout).not.toMatch(/took its worker thread down|could not load/);
      expect(result.stdout).toMatch(/^✓ no violation in 5 runs/m);
      expect(result.status, result.stdout + result.stderr).toBe(0);
    } finally {
      rmSync(away, { recursive: true, force: true });
    }
  });
});

describe('SIGINT during fuzz --time 1h (seed 1)', () => {
  it('stops, writes the summary and keeps every trace found, with no temporary file left', async () => {
    const out = join(scratch, 'interrupted-found');
    const summary = join(scratch, 'interrupted-summary.json');
    // An hour's budget: only the signal ends the run within the test's guard, whatever the machine's load.
    const child = spawn(process.execPath, ['bin/resumecheck.mjs', 'fuzz', '--target', 'counter-ids', '--time', '1h', '--out', out, '--no-corpus', '--summary', summary, '--strict=advice'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      // Signalled once the fuzz says it found something: the state the signal must keep.
      await waitForLine(child, /^found \S+ in run \d+/);
      child.kill('SIGINT');
      const code = await exited;
      const document = JSON.parse(readFileSync(summary, 'utf8')) as Summary;
      // At --strict=advice every finding fails but one a client's own fault triggered; which is found first before the
      // signal depends on timing, so the exit code is read against the findings kept: 1 with a failing one, else 130.
      expect(code).toBe(document.violations.some((violation) => (violation as { fails?: boolean }).fails === true) ? 1 : 130);
      expect(document.interrupted).toBe('SIGINT');
      expect(document.violations.length).toBeGreaterThan(0);
      const files = readdirSync(out);
      expect(files.filter((name) => name.endsWith('.tmp'))).toEqual([]);
      for (const violation of document.violations) expect(existsSync(violation.trace), violation.trace).toBe(true);
      expect(files.sort()).toEqual(document.violations.map((violation) => violation.trace.split('/').at(-1)).sort());
    } finally {
      child.kill('SIGKILL');
    }
  });
});

describe('a user\'s module is contained: nothing of it runs in the fuzz\'s own thread', () => {
  const store = (name: string): string => `module:${join(ROOT, 'check-store', 'fixtures', 'misbehaving-stores.ts')}#${name}`;

  // Its calls never settle: each outlasts the call timeout (3 s), and the first ends the fuzz with the store's verdict,
  // not with runs of a minute each (every later call would wait as long) and a pass.
  const never = `module:${join(ROOT, 'check-store', 'fixtures', 'never-settling-stores.ts')}#neverStore`;
  it('a store call that never settles: one verdict line naming the run and the call, exit 1, with one worker or two', async () => {
    for (const workers of ['1', '2']) {
      const result = await run(['fuzz', '--target', never, '--runs', '20', '--workers', workers, '--no-corpus', '--out', join(scratch, 'never')]);
      expect(result.code).toBe(1);
      expect(result.err).toEqual([]);
      expect(result.out).toHaveLength(2);
      // Which run's call is first seen to outlast the timeout is a matter of real time with two workers (both start
      // hanging within milliseconds of each other): run 1 or run 2.
      expect(result.out[1]).toMatch(workers === '1' ? /^✗ module:.*#neverStore: a store call never settled in run 1 \(seed 1\.1\): storeEvent\(".*", …\) did not settle within 3000 ms; inside the transport it hangs the request it serves$/ : /^✗ module:.*#neverStore: a store call never settled in run [12] \(seed 1\.[12]\): storeEvent\(".*", …\) did not settle within 3000 ms; inside the transport it hangs the request it serves$/);
    }
  });

  it('replayed on such a store, a trace gives the same verdict in one line, exit 1', async () => {
    const result = await run(['replay', join(ROOT, 'traces', 'corpus', 'sdk--exactly-once-execution.json'), '--target', never]);
    expect(result.code).toBe(1);
    expect(result.out.filter((line) => line.startsWith('✗'))).toEqual([expect.stringMatching(/^✗ a store call never settled: storeEvent\(".*", …\) did not settle within 3000 ms; inside the transport it hangs the request it serves$/)]);
  });

  // Each names the store call its thread was in or had made last, as check-store does (targets/module/call-slot.ts).
  for (const [name, call, cause] of [
    // Its third storeEvent exits.
    ['exitingStore', /storeEvent\(/, /the thread exited with code 0/],
    // A storeEvent schedules the timer that throws.
    ['timerThrowsStore', /storeEvent\(/, /lost connection to the database/],
    // Its replayEventsAfter spins without yielding: the worker's heartbeat stops, and the pool terminates it.
    ['busyStore', /replayEventsAfter\(/, /it blocked the thread for over 5000 ms \(a busy loop or a synchronous wait\); a server using it would stop answering the same way$/],
  ] as const) {
    it(`${name}: one verdict line naming the run and the store call, exit 1, with one worker or two`, async () => {
      for (const workers of ['1', '2']) {
        const summary = join(scratch, `contained-${name}-${workers}.json`);
        const result = await run(['fuzz', '--target', store(name), '--runs', '20', '--workers', workers, '--no-corpus', '--out', join(scratch, 'contained'), '--summary', summary]);
        expect(result.code).toBe(1);
        expect(result.err).toEqual([]);
        // The header, then the verdict: the process that called process.exit was a worker, not this one.
        expect(result.out).toHaveLength(2);
        expect(result.out[1]).toMatch(/^✗ module:.*took its worker thread down (in run \d+ \(seed 1\.\d+\)|while shrinking the counterexample of seed 1\.\d+ \([a-z-]+\)), during or after .+? in the run of seed 1\.\d+: /);
        expect(result.out[1]!.split(', during or after ')[1]).toMatch(call);
        expect(result.out[1]).toMatch(cause);
        expect((JSON.parse(readFileSync(summary, 'utf8')) as { exitCode: number; contained: string }).contained).toMatch(cause);
      }
    });
  }
});
