// `resumecheck render` and `resumecheck shrink` from the command line: what they print and write, and bad input as
// one line on stderr with exit code 2. The shrink of a padded scenario must reach the known minimum of its property.

import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { MINIMA } from '../bench/minima.ts';
import { runInProcess } from './run-in-process.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'resumecheck-render-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const run = runInProcess;

function file(name: string, text: string): string {
  const path = join(scratch, name);
  writeFileSync(path, text);
  return path;
}

/** A case of bad input: what the user gave, and what the one line on stderr must mention. */
interface BadInput {
  readonly what: string;
  readonly args: () => string[];
  readonly mentions: RegExp;
}

/** Each case exits 2 with exactly one line on stderr and nothing on stdout. */
function itRefuses(cases: readonly BadInput[]): void {
  for (const { what, args, mentions } of cases) {
    it(`${what}: exit 2, one line on stderr, nothing on stdout`, async () => {
      const result = await run(args());
      expect(result.code).toBe(2);
      expect(result.out).toEqual([]);
      expect(result.err).toHaveLength(1);
      expect(result.err[0]).toMatch(mentions);
    });
  }
}

const CORPUS_TRACE = join(ROOT, 'traces/corpus/sdk-shared--no-cross-session-delivery.json');
const CONTRACT_TRACE = join(ROOT, 'traces/render/fixtures/store-contract--sdk-example-store+shared--session-isolation.json');
const PADDED = join(ROOT, 'cli/fixtures/padded-replay-request-frames.txt');

describe('render', () => {
  it('prints each format; --out writes the same bytes', async () => {
    const text = await run(['render', CORPUS_TRACE]);
    expect(text.code).toBe(0);
    expect(text.out.join('\n')).toContain('✗ no-cross-session-delivery violated by sdk-shared (safety)');
    const mermaid = await run(['render', CORPUS_TRACE, '--format', 'mermaid']);
    expect(mermaid.out.join('\n').startsWith('sequenceDiagram\n')).toBe(true);
    const html = await run(['render', CONTRACT_TRACE, '--format', 'html']);
    expect(html.out.join('\n').startsWith('<!DOCTYPE html>\n')).toBe(true);
    const out = join(scratch, 'page.html');
    expect((await run(['render', CONTRACT_TRACE, '--format', 'html', '--out', out])).code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(`${html.out.join('\n')}\n`);
    expect(readdirSync(scratch).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  const bad: readonly BadInput[] = [
    { what: 'no file', args: () => ['render'], mentions: /render needs a trace FILE/ },
    { what: 'an unknown format', args: () => ['render', CORPUS_TRACE, '--format', 'pdf'], mentions: /unknown format "pdf"; --format takes text, mermaid, html/ },
    { what: 'a missing file', args: () => ['render', join(scratch, 'missing.json')], mentions: /cannot read the file \(ENOENT\)/ },
    { what: 'a file that is not JSON', args: () => ['render', file('text.json', 'hello')], mentions: /not JSON/ },
    { what: 'JSON of no known trace kind', args: () => ['render', file('other.json', '{"format":"something-else"}')], mentions: /not a trace resumecheck renders \(format "something-else"/ },
    { what: 'a simulator trace without choices', args: () => ['render', file('broken.json', '{"format":"resumecheck-trace","formatVersion":1,"target":"reference","config":{}}')], mentions: /choices must be/ },
    { what: 'a contract trace without a verdict', args: () => ['render', file('contract.json', JSON.stringify({ ...JSON.parse(readFileSync(CONTRACT_TRACE, 'utf8')), verdict: null }))], mentions: /verdict must name a contract property/ },
    { what: 'two files', args: () => ['render', CORPUS_TRACE, CORPUS_TRACE], mentions: /unexpected argument/ },
    { what: 'an --out that is a directory', args: () => ['render', CORPUS_TRACE, '--out', scratch], mentions: /--out .*is a directory, not a file/ },
  ];
  itRefuses(bad);
});

describe('fuzz --html', () => {
  it('writes one page for the whole run: every finding with its diagram and steps', async () => {
    const page = join(scratch, 'run.html');
    const result = await run(['fuzz', '--target', 'no-owner-check', '--runs', '200', '--seed', '1', '--out', join(scratch, 'fuzz'), '--html', page]);
    expect(result.code).toBe(1);
    const html = readFileSync(page, 'utf8');
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    // The verdict line the terminal prints, severities weighed: the advice found beside the failure says it fails nothing here.
    expect(html).toContain('1 property violated in 200 runs: no-cross-session-delivery; · advice (fails only with --strict=advice): no-withheld-result');
    expect(html).toContain('<h1 class="bad">');
    expect(html).toContain('<section class="trace" id="finding-1"');
    expect(html).toContain('id="finding-1-violation"');
    expect(html).toContain('<svg class="sequence"');
    expect(html).toMatch(/npx resumecheck replay [^<]*fuzz\/no-owner-check--no-cross-session-delivery--[0-9a-f]{16}\.json/);
  });

  it('says so when the run found nothing', async () => {
    const page = join(scratch, 'clean.html');
    expect((await run(['fuzz', '--target', 'reference', '--runs', '20', '--html', page])).code).toBe(0);
    expect(readFileSync(page, 'utf8')).toContain('no violation in 20 runs');
    expect(readFileSync(page, 'utf8')).toContain('<h1 class="ok">');
  });

  it('makes the folder of the page; a page that is a directory is bad input, found before the run', async () => {
    const page = join(scratch, 'made/for/run.html');
    expect((await run(['fuzz', '--target', 'reference', '--runs', '1', '--html', page])).code).toBe(0);
    expect(readFileSync(page, 'utf8')).toContain('no violation in 1 runs');
    const result = await run(['fuzz', '--target', 'reference', '--runs', '1', '--html', scratch]);
    expect(result.code).toBe(2);
    expect(result.out).toEqual([]);
    expect(result.err).toEqual([expect.stringMatching(/--html .*is a directory, not a file/)]);
  });
});

describe('shrink', () => {
  const known = MINIMA['replay-request-frames']!.minima.find((minimum) => minimum.property === 'exactly-once-execution')!;

  it(`reduces the padded 40-step scenario to the known minimum (${known.length} steps) of its property, next to it`, async () => {
    const scenario = join(scratch, 'padded.txt');
    copyFileSync(PADDED, scenario);
    const actions = readFileSync(scenario, 'utf8').split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#'));
    expect(actions.length).toBeGreaterThanOrEqual(40);
    const result = await run(['shrink', scenario, '--target', 'replay-request-frames']);
    expect(result.code).toBe(1);
    expect(result.out[0]).toMatch(new RegExp(`^shrunk .*padded\\.txt from 40 to ${known.length} steps in \\d+ runs; exactly-once-execution still fails on replay-request-frames$`));
    const shrunk = readFileSync(join(scratch, 'padded.shrunk.txt'), 'utf8');
    const kept = shrunk.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#'));
    expect(kept).toHaveLength(known.length!);
    // The result is itself a scenario that still fails the same way.
    // Seed 000's advice: exit 1 with --strict=advice; the finding is printed (and written) without it too.
    const again = await run(['script', join(scratch, 'padded.shrunk.txt'), '--target', 'replay-request-frames', '--strict=advice', '--out', join(scratch, 'found')]);
    expect(again.code).toBe(1);
    expect(again.out[0]).toBe('· exactly-once-execution violated by replay-request-frames (safety; advice: fails only with --strict=advice)');
    const quiet = await run(['script', join(scratch, 'padded.shrunk.txt'), '--target', 'replay-request-frames', '--out', join(scratch, 'found')]);
    expect(quiet.code).toBe(0);
    expect(quiet.out[0]).toBe(again.out[0]);
  });

  it('shrinks a trace into a trace beside it, which replays to the same property', async () => {
    const written = await run(['script', PADDED, '--target', 'replay-request-frames', '--strict', 'advice', '--out', join(scratch, 'traces')]);
    expect(written.code).toBe(1);
    const [name] = readdirSync(join(scratch, 'traces'));
    const trace = join(scratch, 'traces', name!);
    const result = await run(['shrink', trace]);
    expect(result.code).toBe(1);
    const shrunk = trace.replace(/\.json$/, '.shrunk.json');
    expect(JSON.parse(readFileSync(shrunk, 'utf8')).choices).toHaveLength(known.length!);
    expect((await run(['replay', shrunk])).out[0]).toBe('reproduced: exactly-once-execution on replay-request-frames');
  });

  it('writes nothing for a scenario that holds', async () => {
    const scenario = file('holds.txt', 'client 1 initializes\nclient 1 calls read\n');
    const result = await run(['shrink', scenario, '--target', 'reference']);
    expect(result.code).toBe(0);
    expect(result.out).toEqual([`✓ ${scenario}: no violation on reference; nothing to shrink`]);
    expect(existsSync(join(scratch, 'holds.shrunk.txt'))).toBe(false);
  });

  const bad: readonly BadInput[] = [
    { what: 'no file', args: () => ['shrink'], mentions: /shrink needs a FILE/ },
    { what: 'a missing file', args: () => ['shrink', join(scratch, 'missing.txt'), '--target', 'reference'], mentions: /cannot read the file \(ENOENT\)/ },
    { what: 'a scenario without --target', args: () => ['shrink', PADDED], mentions: /--target is required for a scenario/ },
    { what: 'an unknown target', args: () => ['shrink', PADDED, '--target', 'nope'], mentions: /unknown target "nope"/ },
    { what: 'a line no action matches', args: () => ['shrink', file('wrong.txt', 'client 1 initializes\nclient 1 flies\n'), '--target', 'reference'], mentions: /step 2: "client 1 flies" matches 0 enabled actions/ },
    // A check-store contract trace shrinks (cli/store-level-traces.test.ts), but what it names is imported only when asked.
    { what: 'a contract trace naming its module', args: () => ['shrink', CONTRACT_TRACE], mentions: /would import the module "check-store\/fixtures\/sdk-example-store\.ts\+shared"/ },
    { what: 'an empty scenario', args: () => ['shrink', file('empty.txt', '# nothing\n'), '--target', 'reference'], mentions: /no action in the scenario/ },
  ];
  itRefuses(bad);
});
