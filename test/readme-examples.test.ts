// Every README example does what the README says. Before each example block the README has a comment
// `<!-- README examples ... -->` with one line per `npx resumecheck` command of the block, in order:
//   exit N [PROPERTY ...] [| as: ARGS] [| stop once found]   or   skip: REASON
// "exit N": the exit code; each PROPERTY must be reported as failing (a line starting "✗ PROPERTY "); "as:" runs the
// command smaller where the README's promise still holds at that size; "stop once found" sends SIGINT once every
// listed property's "found P in run N" line is printed (N within the command's --runs), which cuts a long shrink
// over the wire short; "skip:" says why a line is not run. The sample fuzz output must be what that command prints.
// Commands run in a scratch folder holding the fixtures they name (test/readme-fixtures/) and the kept corpus.

import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../cli/run-in-process.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const FIXTURES = join(ROOT, 'test', 'readme-fixtures');
const TSX_LOADER = join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs');

/** What the README promises for one command. */
export interface Expectation {
  readonly line: string;
  readonly args: readonly string[];
  readonly skip: string | null;
  readonly exit: number | null;
  readonly properties: readonly string[];
  readonly stopOnceFound: boolean;
}

/** Splits a command line into arguments as a POSIX shell would for plain words, '…' and "…". */
export function shellWords(text: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  let quote: '"' | "'" | null = null;
  for (const character of text) {
    if (quote !== null) {
      if (character === quote) quote = null;
      else word += character;
    } else if (character === '"' || character === "'") {
      quote = character;
      word ??= '';
    } else if (/\s/.test(character)) {
      if (word !== null) words.push(word);
      word = null;
    } else word = (word ?? '') + character;
  }
  if (quote !== null) throw new Error(`unterminated quote in ${text}`);
  if (word !== null) words.push(word);
  return words;
}

/** The README's example blocks with their expectations; throws when a block and its comment do not line up. */
export function readmeExpectations(text: string): Expectation[] {
  const expectations: Expectation[] = [];
  const pattern = /<!-- README examples([\s\S]*?)-->\s*```sh\n([\s\S]*?)```/g;
  for (const match of text.matchAll(pattern)) {
    const promised = match[1]!.split('\n').map((line) => line.trim()).filter((line) => /^(exit \d|skip:)/.test(line));
    const commands = match[2]!
      .split('\n')
      .filter((line) => line.includes('npx resumecheck '))
      .map((line) => line.slice(line.indexOf('npx resumecheck ') + 'npx resumecheck '.length).split(/\s+#\s/)[0]!.trim());
    if (promised.length !== commands.length) throw new Error(`${commands.length} commands but ${promised.length} expectations before: ${commands[0]}`);
    for (const [index, command] of commands.entries()) {
      const [head, ...options] = promised[index]!.split('|').map((part) => part.trim());
      const as = options.find((option) => option.startsWith('as:'));
      const skip = head!.startsWith('skip:') ? head!.slice('skip:'.length).trim() : null;
      const [, code, ...properties] = skip === null ? head!.split(/\s+/) : [];
      expectations.push({
        line: command,
        args: shellWords(as === undefined ? command : as.slice('as:'.length)),
        skip,
        exit: skip === null ? Number(code) : null,
        properties,
        stopOnceFound: options.includes('stop once found'),
      });
    }
  }
  return expectations;
}

const scratch = mkdtempSync(join(tmpdir(), 'resumecheck-readme-'));
const home = process.cwd();
beforeAll(() => {
  // The corpus the commands replay and name, the example server, and the fixtures the examples name.
  mkdirSync(join(scratch, 'traces'));
  symlinkSync(join(ROOT, 'traces', 'corpus'), join(scratch, 'traces', 'corpus'));
  symlinkSync(join(ROOT, 'examples'), join(scratch, 'examples'));
  // As in a user's project: the packages (tsx, for worker threads and .ts stores) resolve from the working folder.
  symlinkSync(join(ROOT, 'node_modules'), join(scratch, 'node_modules'));
  copyFileSync(join(FIXTURES, 'incident.txt'), join(scratch, 'incident.txt'));
  symlinkSync(join(FIXTURES, 'my-store.ts'), join(scratch, 'my-store.ts'));
  process.chdir(scratch);
});
afterAll(() => {
  process.chdir(home);
  rmSync(scratch, { recursive: true, force: true });
});

/** Runs the command in its own process and sends SIGINT once each property's discovery line is printed. */
function runUntilFound(args: readonly string[], properties: readonly string[]): Promise<{ code: number | null; out: string[] }> {
  const runsMax = Number(args[args.indexOf('--runs') + 1]);
  const child = spawn(process.execPath, ['--import', TSX_LOADER, join(ROOT, 'cli', 'run.ts'), ...args], { cwd: scratch, stdio: ['ignore', 'pipe', 'pipe'] });
  const out: string[] = [];
  const missing = new Set(properties);
  let buffer = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    const lines = buffer.split('\n');
    buffer = lines.pop()!;
    for (const line of lines) {
      out.push(line);
      const found = /^found (\S+) in run (\d+) /.exec(line);
      if (found === null || !missing.has(found[1]!) || Number(found[2]) > runsMax) continue;
      missing.delete(found[1]!);
      if (missing.size === 0) child.kill('SIGINT');
    }
  });
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out })));
}

describe('README examples', () => {
  const expectations = readmeExpectations(README);

  it('the Quick start, the examples and the over-the-wire block each say what they promise', () => {
    expect(expectations.length).toBeGreaterThanOrEqual(21);
    expect(expectations.filter((expectation) => expectation.skip === null).length).toBeGreaterThanOrEqual(16);
    expect(expectations.map((expectation) => expectation.line)).toContain('fuzz --target sdk-shared');
    expect(expectations.some((expectation) => expectation.line.startsWith('fuzz --serve'))).toBe(true);
  });

  for (const expectation of expectations) {
    const title = `${expectation.line}${expectation.args.join(' ') === expectation.line ? '' : ` (as ${expectation.args.join(' ')})`}`;
    if (expectation.skip !== null) {
      it.skip(`${title}: ${expectation.skip}`, () => undefined);
      continue;
    }
    it(`${title} → exit ${expectation.exit}${expectation.properties.length === 0 ? '' : `, ${expectation.properties.join(', ')}`}`, async () => {
      const { code, out } = expectation.stopOnceFound ? await runUntilFound(expectation.args, expectation.properties) : await runInProcess([...expectation.args]);
      expect(code, out.join('\n')).toBe(expectation.exit);
      // Each promised property is reported with its severity's mark (properties/severity.ts): ✗ failure, ⚠ warning, · advice, ⓘ note.
      for (const property of expectation.properties) expect(out.some((line) => /^[✗⚠·ⓘ] /.test(line) && line.slice(2).startsWith(`${property} `)), property).toBe(true);
      if (expectation.args.includes('--out') && expectation.args[0] === 'render') expect(existsSync(join(scratch, expectation.args[expectation.args.indexOf('--out') + 1]!))).toBe(true);
    });
  }

  it('the sample fuzz output is what `fuzz --target no-owner-check --runs 5000 --seed 1` prints', async () => {
    const at = README.indexOf('A fuzz prints, for example (`npx resumecheck fuzz --target no-owner-check --runs 5000 --seed 1`');
    expect(at).toBeGreaterThan(0);
    const start = README.indexOf('```\n', at) + 4;
    const sample = README.slice(start, README.indexOf('```\n', start));
    // Its own --out: the sample names traces/found/, which the examples above may have written into already.
    rmSync(join(scratch, 'traces', 'found'), { recursive: true, force: true });
    const { code, out } = await runInProcess(['fuzz', '--target', 'no-owner-check', '--runs', '5000', '--seed', '1']);
    expect(code).toBe(1);
    expect(`${out.join('\n')}\n`).toBe(sample);
    // "Reading a trace" quotes step 4's request record of the trace it writes.
    const written = out.find((line) => line.startsWith('trace written: '))!.slice('trace written: '.length);
    const steps = (JSON.parse(readFileSync(join(scratch, written), 'utf8')) as { steps: { observations: unknown[] }[] }).steps;
    expect(README).toContain(`step 4's request in the sample above is\n\`${JSON.stringify(steps[3]!.observations[0])}\``);
  });
});
