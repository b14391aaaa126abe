// Signals and crashes keep what was done: SIGINT during explore reports the depth it cleared; SIGINT during a fuzz
// over the wire writes the summary, JUnit and page; a served server that crashes mid-run ends the fuzz with its
// summary written and exit 3, not "bad input". Each test drives a real child process and waits for the lines it
// prints (never for time to pass); each signal goes to the one process started, as a CI runner sends it.

import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'resumecheck-signals-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A child process's lines as they come, and its exit. */
interface Watched {
  readonly child: ChildProcess;
  readonly out: string[];
  readonly err: string[];
  /** Resolves with the first line of stdout (or stderr) matching `pattern` (rejects if the process exits first). */
  line(pattern: RegExp, stream?: 'out' | 'err'): Promise<string>;
  readonly exited: Promise<number | null>;
}

/** Starts the CLI from the sources, in its own process (the signal goes to it alone). */
function startCli(args: readonly string[]): Watched {
  const child = spawn(process.execPath, ['--import', 'tsx', 'cli/run.ts', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const out: string[] = [];
  const err: string[] = [];
  const waiting: { pattern: RegExp; stream: 'out' | 'err'; resolve: (line: string) => void; reject: (error: Error) => void }[] = [];
  const exited = new Promise<number | null>((resolve) => {
    child.on('exit', (code) => {
      for (const waiter of waiting) waiter.reject(new Error(`exited (${String(code)}) before a line matched ${waiter.pattern}; stderr: ${err.join(' | ')}`));
      resolve(code);
    });
  });
  const split = (sink: string[], onLine: (line: string) => void) => {
    let buffer = '';
    return (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      const lines = buffer.split('\n');
      buffer = lines.pop()!;
      for (const line of lines) {
        sink.push(line);
        onLine(line);
      }
    };
  };
  const notify = (stream: 'out' | 'err') => (line: string) => {
    for (const waiter of [...waiting]) {
      if (waiter.stream !== stream || !waiter.pattern.test(line)) continue;
      waiting.splice(waiting.indexOf(waiter), 1);
      waiter.resolve(line);
    }
  };
  child.stdout!.on('data', split(out, notify('out')));
  child.stderr!.on('data', split(err, notify('err')));
  return {
    child,
    out,
    err,
    exited,
    line: (pattern, stream = 'out') => {
      const seen = (stream === 'out' ? out : err).find((line) => pattern.test(line));
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve, reject) => waiting.push({ pattern, stream, resolve, reject }));
    },
  };
}

/**
 * Sends SIGINT once explore reports (on stderr) that it is searching depth `depth`, and reads what it printed: exit
 * 130, the depth before it cleared, and how far into the depth it got. Depth 6 takes one thread over ten seconds
 * on the reference, depth 5 about one: a search that read the signal only at the end of the depth would have taken
 * the steps from all of its worlds.
 */
async function interruptAtDepth(args: readonly string[], depth: number, depthMax: number): Promise<{ worlds: number; of: number }> {
  const run = startCli(['explore', '--target', 'reference', '--depth', String(depthMax), ...args, '--out', join(scratch, 'explore-found')]);
  try {
    await run.line(new RegExp(`^searching depth ${depth} of ${depthMax} \\(the steps from \\d+ worlds of depth ${depth - 1}\\)$`), 'err');
    run.child.kill('SIGINT');
    expect(await run.exited, [...run.out, ...run.err].join('\n')).toBe(130);
    const interrupted = run.out.find((line) => line.startsWith('interrupted by SIGINT'));
    const pattern = new RegExp(
      `^interrupted by SIGINT: none up to depth ${depth - 1}; depth ${depth} of ${depthMax} was being searched \\(the steps from (\\d+) of the (\\d+) worlds of depth ${depth - 1} taken; \\d+ sequences, \\d+ states, `,
    );
    const match = pattern.exec(interrupted ?? '');
    expect(match, run.out.join('\n')).not.toBeNull();
    expect(run.out.some((line) => line.startsWith('explored: '))).toBe(true);
    // No later depth was started after the signal.
    expect(run.err.filter((line) => line.startsWith('searching depth ')).at(-1)).toMatch(new RegExp(`^searching depth ${depth} of`));
    return { worlds: Number(match![1]), of: Number(match![2]) };
  } finally {
    run.child.kill('SIGKILL');
  }
}

// The SIGINT handler's path into the search and out as exit 130. The same signal met by a depth shared out among
// threads is sim/search/explore-workers.test.ts's, raised there at a point of the search's own choosing.
describe('SIGINT during explore: the depth it cleared, exit 130, the depth being searched left part-way', () => {
  it('--depth 8, one thread, in depth 6', async () => {
    const { worlds, of } = await interruptAtDepth(['--workers', '1'], 6, 8);
    expect(worlds).toBeLessThan(of);
  });
});

describe('a fuzz over the wire', () => {
  it('SIGINT: the summary, JUnit and page asked for are written with what was done, no temporary file left', async () => {
    const directory = join(scratch, 'wire-interrupted');
    const files = { summary: join(directory, 'summary.json'), junit: join(directory, 'junit.xml'), html: join(directory, 'page.html') };
    const run = startCli([
      'fuzz', '--serve', 'node examples/probe-server.mjs --target reference', '--runs', '100000', '--no-corpus',
      '--out', join(directory, 'found'), '--summary', files.summary, '--junit', files.junit, '--html', files.html,
    ]);
    try {
      // The header is printed once the server answered and the handlers are in place.
      await run.line(/^resumecheck fuzz: target serve:/);
      run.child.kill('SIGINT');
      expect(await run.exited).toBe(130);
      const summary = JSON.parse(readFileSync(files.summary, 'utf8')) as { interrupted: string; exitCode: number; runs: number };
      expect(summary.interrupted).toBe('SIGINT');
      expect(summary.exitCode).toBe(130);
      expect(readFileSync(files.junit, 'utf8')).toContain('<testsuite');
      expect(readFileSync(files.html, 'utf8')).toContain('<html');
      expect(readdirSync(directory).filter((name) => name.endsWith('.tmp'))).toEqual([]);
      expect(run.out.some((line) => /^interrupted by SIGINT after \d+ runs/.test(line)), run.out.join('\n')).toBe(true);
    } finally {
      run.child.kill('SIGKILL');
    }
  });

  it('a served server that crashes mid-run: exit 3, one line saying so, the summary and JUnit written', async () => {
    const directory = join(scratch, 'wire-crashed');
    const summaryPath = join(directory, 'summary.json');
    const junitPath = join(directory, 'junit.xml');
    // The fixture answers the probe check, then exits at the first request of run 1: a crash driven by what it is sent.
    const run = startCli(['fuzz', '--serve', 'node cli/fixtures/json-server.mjs --sessions --crash-run r1', '--runs', '5', '--no-corpus', '--out', join(directory, 'found'), '--summary', summaryPath, '--junit', junitPath]);
    try {
      expect(await run.exited).toBe(3);
      expect(run.err.filter((line) => line.startsWith('resumecheck:'))).toEqual([]);
      expect(run.out.filter((line) => line.startsWith('✗ the server failed mid-run'))).toHaveLength(1);
      const summary = JSON.parse(readFileSync(summaryPath, 'utf8')) as { serverFault: string | null; exitCode: number };
      expect(summary.exitCode).toBe(3);
      expect(summary.serverFault).toMatch(/failed|exited/);
      expect(existsSync(junitPath)).toBe(true);
    } finally {
      run.child.kill('SIGKILL');
    }
  });
});

/**
 * A project folder as a CI job sees it: `node_modules/.bin/resumecheck` (here a launcher of the sources through tsx,
 * the installed package's bin being the compiled form of the same) and `bin/resumecheck.mjs` for the nightly job's
 * checkout of this repository.
 */
function ciFolder(name: string): string {
  const folder = join(scratch, name);
  mkdirSync(join(folder, 'node_modules', '.bin'), { recursive: true });
  mkdirSync(join(folder, 'bin'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules', 'tsx'), join(folder, 'node_modules', 'tsx'));
  const launcher = `#!/usr/bin/env node\nimport { register } from 'tsx/esm/api';\nregister();\nawait import(${JSON.stringify(pathToFileURL(join(ROOT, 'cli', 'run.ts')).href)});\n`;
  for (const path of [join(folder, 'node_modules', '.bin', 'resumecheck'), join(folder, 'bin', 'resumecheck.mjs')]) {
    writeFileSync(path, launcher);
    chmodSync(path, 0o755);
  }
  return folder;
}

/**
 * Resolves once `reached()` holds, looking again on each turn of a 20 ms poll; rejects with `why` once `ended()` (the
 * process watched exited first). No bound of its own: vitest's guard is the only one.
 */
async function until(reached: () => boolean, ended: () => boolean, why: string): Promise<void> {
  while (!reached()) {
    if (ended()) throw new Error(why);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The shell script of a step of the nightly workflow, by its name. */
function workflowStep(name: string): string {
  const workflow = readFileSync(join(ROOT, '.github', 'workflows', 'nightly-fuzz.yml'), 'utf8');
  const at = workflow.indexOf(`- name: ${name}\n`);
  const run = workflow.indexOf('run: |\n', at) + 'run: |\n'.length;
  const lines: string[] = [];
  for (const line of workflow.slice(run).split('\n')) {
    if (!line.startsWith('          ')) break;
    lines.push(line.slice(10));
  }
  return lines.join('\n');
}

describe('a CI cancel (a signal to the process the runner started, alone)', () => {
  it("the nightly job's Fuzz step passes it on: the fuzz writes its JSON with what it found, the step ends", async () => {
    const folder = ciFolder('nightly');
    const found = join(folder, 'found');
    const step = spawn('bash', ['-e', '-c', workflowStep('Fuzz')], {
      cwd: folder,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, TARGET: 'no-owner-check', BUDGET: '10m', SEED: '1', SHARD: '1/4' },
    });
    let ended = false;
    const exited = new Promise<number | null>((resolve) => step.on('exit', (code) => {
      ended = true;
      resolve(code);
    }));
    try {
      // A trace in found/ is written once the fuzz runs with its handlers in place; the search then goes on for minutes.
      await until(() => existsSync(found) && readdirSync(found).some((file) => file.startsWith('no-owner-check--')), () => ended, 'the step ended before a trace was written');
      step.kill('SIGINT');
      // The fuzz exits 1 (a counterexample, judged by the verdict step), which the step itself does not fail on.
      expect(await exited).toBe(0);
      const document = JSON.parse(readFileSync(join(found, 'fuzz-output.json'), 'utf8')) as { interrupted: string; violations: unknown[] };
      expect(document.interrupted).toBe('SIGTERM');
      expect(document.violations.length).toBeGreaterThan(0);
    } finally {
      step.kill('SIGKILL');
    }
  });

  it("the README's CI step (exec ./node_modules/.bin/resumecheck …): the signal reaches resumecheck, which stops", async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const line = /^ {8}run: (exec \.\/node_modules\/\.bin\/resumecheck check-store .*)$/m.exec(readme)?.[1];
    expect(line, 'the README CI step runs the installed binary with exec').toBeDefined();
    const folder = ciFolder('project');
    mkdirSync(join(folder, 'src'));
    symlinkSync(join(ROOT, 'check-store', 'fixtures', 'core-store.ts'), join(folder, 'src', 'event-store.ts'));
    const step = spawn('bash', ['-e', '-c', line!], { cwd: folder, stdio: ['ignore', 'pipe', 'pipe'] });
    let ended = false;
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => step.on('exit', (code, signal) => {
      ended = true;
      resolve({ code, signal });
    }));
    try {
      // After exec the process the runner started is resumecheck itself: its command line says so.
      const command = (): string => {
        try {
          return readFileSync(`/proc/${step.pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
        } catch {
          return '';
        }
      };
      await until(() => /node .*resumecheck check-store/.test(command()), () => ended, "the step ended before its process became resumecheck");
      step.kill('SIGINT');
      const { code, signal } = await exited;
      // resumecheck got the signal itself: it exits 130 (or dies of SIGINT), where npx would have left it running.
      expect(code === 130 || signal === 'SIGINT', `code ${String(code)}, signal ${String(signal)}`).toBe(true);
    } finally {
      step.kill('SIGKILL');
    }
  });
});
