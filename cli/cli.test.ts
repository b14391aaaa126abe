// The command line's contract with a user: bad input is one line on stderr, nothing on stdout, exit code 2;
// `targets --json` is machine-readable; and the installed bin really runs.

import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../sim/config.ts';
import { recordTrace } from '../sim/search/fuzz.ts';
import { referenceTarget } from '../targets/reference/reference.target.ts';
import { serializeTrace } from '../traces/trace.ts';
import { runInProcess } from './run-in-process.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'resumecheck-cli-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs the CLI in-process and captures what it prints. */
const run = runInProcess;

/** A directory path that cannot be made: under a read-only folder (root ignores modes, so /proc/sys for root). */
function unwritableDir(): string {
  if (process.getuid?.() === 0) return '/proc/sys/resumecheck-out';
  const folder = join(scratch, 'read-only');
  mkdirSync(folder, { recursive: true });
  chmodSync(folder, 0o555);
  return join(folder, 'out');
}

function file(name: string, text: string): string {
  const path = join(scratch, name);
  writeFileSync(path, text);
  return path;
}

/** A valid trace (three steps on the reference) as plain data, to spoil one field at a time. */
async function validTrace(): Promise<Record<string, unknown>> {
  const trace = await recordTrace(referenceTarget, resolveConfig({ seed: 'cli' }), [0, 0, 0], null);
  return JSON.parse(serializeTrace(trace)) as Record<string, unknown>;
}

describe('bad input: exit 2, exactly one line on stderr, nothing on stdout', () => {
  const cases: ReadonlyArray<{ readonly what: string; readonly args: () => Promise<string[]> | string[]; readonly mentions: RegExp }> = [
    { what: 'an unknown command', args: () => ['frobnicate'], mentions: /unknown command "frobnicate"/ },
    { what: 'an unknown flag', args: () => ['fuzz', '--target', 'reference', '--bogus'], mentions: /bogus/ },
    { what: '--runs abc', args: () => ['fuzz', '--target', 'reference', '--runs', 'abc'], mentions: /--runs.*"abc"/ },
    { what: '--runs 0', args: () => ['fuzz', '--target', 'reference', '--runs', '0'], mentions: /--runs/ },
    { what: '--runs and --time together', args: () => ['fuzz', '--target', 'reference', '--runs', '1', '--time', '1s'], mentions: /--runs or --time/ },
    { what: 'a --time that is no duration', args: () => ['fuzz', '--target', 'reference', '--time', 'soon'], mentions: /--time/ },
    { what: '--steps out of bounds', args: () => ['fuzz', '--target', 'reference', '--steps', '0'], mentions: /--steps/ },
    { what: 'a --seed with spaces', args: () => ['fuzz', '--target', 'reference', '--seed', 'a b'], mentions: /--seed/ },
    { what: 'fuzz without --target', args: () => ['fuzz', '--runs', '1'], mentions: /--target is required/ },
    { what: 'an unknown target', args: () => ['fuzz', '--target', 'no-such-target', '--runs', '1'], mentions: /unknown target "no-such-target"/ },
    { what: 'replay without a file', args: () => ['replay'], mentions: /replay needs a trace FILE/ },
    { what: 'replay of a missing file', args: () => ['replay', join(scratch, 'missing.json')], mentions: /missing\.json: cannot read the file \(ENOENT\)/ },
    { what: 'replay of a file that is not JSON', args: () => ['replay', file('not-json.json', 'this is { not json')], mentions: /not JSON/ },
    { what: 'replay of a JSON array', args: () => ['replay', file('array.json', '[1, 2, 3]')], mentions: /not a trace object/ },
    { what: 'replay of JSON that is not a trace', args: () => ['replay', file('object.json', '{"hello": "world"}')], mentions: /not a resumecheck trace/ },
    {
      what: 'replay of a trace whose choices are strings',
      args: async () => ['replay', file('string-choices.json', JSON.stringify({ ...(await validTrace()), choices: ['0', '1'] }))],
      mentions: /choices must be an array of whole numbers/,
    },
    {
      what: 'replay of a trace whose choices are not an array',
      args: async () => ['replay', file('object-choices.json', JSON.stringify({ ...(await validTrace()), choices: { 0: 1 } }))],
      mentions: /choices must be an array/,
    },
    {
      what: 'replay of a trace whose choices are negative',
      args: async () => ['replay', file('negative-choices.json', JSON.stringify({ ...(await validTrace()), choices: [0, -1] }))],
      mentions: /choices must be an array of whole numbers/,
    },
    {
      what: 'replay of a trace of another format version',
      args: async () => ['replay', file('version.json', JSON.stringify({ ...(await validTrace()), formatVersion: 99 }))],
      mentions: /format version 99/,
    },
    {
      what: 'replay of a trace whose config is out of bounds',
      args: async () => {
        const trace = await validTrace();
        return ['replay', file('config.json', JSON.stringify({ ...trace, config: { ...(trace['config'] as object), clients: 99 } }))];
      },
      mentions: /config: clients must be a whole number/,
    },
    {
      what: 'replay of a trace naming an unknown target',
      args: async () => ['replay', file('target.json', JSON.stringify({ ...(await validTrace()), target: 'no-such-target' }))],
      mentions: /unknown target "no-such-target"/,
    },
    { what: 'targets with a stray argument', args: () => ['targets', 'extra'], mentions: /unexpected argument .extra./i },
    { what: 'a negative --runs', args: () => ['fuzz', '--target', 'reference', '--runs', '-5'], mentions: /--runs takes a whole number from 1 to \d+, got "-5"/ },
    { what: 'a negative check-store --runs', args: () => ['check-store', 'store.ts', '--runs', '-1'], mentions: /--runs takes a whole number.*"-1"/ },
    { what: 'a repeated --runs', args: () => ['fuzz', '--target', 'reference', '--runs', '1', '--runs', '2'], mentions: /--runs is given twice/ },
    { what: 'a repeated --target', args: () => ['fuzz', '--target', 'reference', '--target=sdk', '--runs', '1'], mentions: /--target is given twice/ },
    { what: 'a repeated flag', args: () => ['targets', '--json', '--json'], mentions: /--json is given twice/ },
    { what: 'an option without its value', args: () => ['fuzz', '--target', 'reference', '--runs'], mentions: /--runs needs a value/ },
    { what: 'a value for a flag', args: () => ['targets', '--json=yes'], mentions: /--json takes no value/ },
    { what: '--out naming a file', args: () => ['fuzz', '--target', 'reference', '--runs', '1', '--out', file('a-file', '')], mentions: /--out .*a-file: is a file, not a directory/ },
    { what: 'an empty --out', args: () => ['fuzz', '--target', 'reference', '--runs', '1', '--out', ''], mentions: /--out takes a directory, got an empty path/ },
    { what: '--out under a file', args: () => ['fuzz', '--target', 'reference', '--runs', '1', '--out', join(file('b-file', ''), 'sub')], mentions: /b-file is a file, so the directory cannot be made/ },
    { what: 'an unwritable --out', args: () => ['fuzz', '--target', 'reference', '--runs', '1', '--out', unwritableDir()], mentions: /is not writable \(E[A-Z]+\)/ },
    { what: 'script --out naming a file', args: () => ['script', file('c.txt', 'client 1 initializes\n'), '--target', 'reference', '--out', file('c-file', '')], mentions: /--out .*c-file: is a file/ },
    { what: 'check-store --out naming a file', args: () => ['check-store', join(ROOT, 'check-store/fixtures/core-store.ts'), '--runs', '1', '--out', file('d-file', '')], mentions: /--out .*d-file: is a file/ },
    { what: 'help for an unknown command', args: () => ['help', 'frobnicate'], mentions: /unknown command "frobnicate"/ },
  ];

  for (const { what, args, mentions } of cases) {
    it(what, async () => {
      const { code, out, err } = await run(await args());
      expect(out).toEqual([]);
      expect(err).toHaveLength(1);
      expect(err[0]!.split('\n')).toHaveLength(1);
      expect(err[0]).toMatch(/^resumecheck: /);
      expect(err[0]).toMatch(mentions);
      expect(code).toBe(2);
    });
  }

  it('a valid trace replays on the reference with exit 0 (the spoiled ones above fail for their one spoiled field)', async () => {
    const path = file('valid.json', JSON.stringify(await validTrace()));
    const { code, err } = await run(['replay', path]);
    expect(err).toEqual([]);
    expect(code).toBe(0);
  });
});

interface TargetRow {
  name: string;
  kind: string;
  description: string;
  breaks: string[];
  eras: string[];
  components?: Record<string, string>;
}

function checkTargetRows(document: unknown): void {
  const envelope = document as { schemaVersion: number; tool: string; command: string; elapsedMs: number; targets: unknown };
  expect([envelope.schemaVersion, envelope.tool, envelope.command]).toEqual([1, 'resumecheck', 'targets']);
  expect(typeof envelope.elapsedMs).toBe('number');
  const rows = envelope.targets;
  expect(Array.isArray(rows)).toBe(true);
  const list = rows as TargetRow[];
  for (const row of list) {
    // An SDK target (assembled from a transport, a store and a router) also names its components.
    expect(Object.keys(row).sort()).toEqual(row.kind === 'sdk' ? ['breaks', 'components', 'description', 'eras', 'kind', 'name'] : ['breaks', 'description', 'eras', 'kind', 'name']);
    if (row.kind === 'sdk') expect(Object.keys(row.components!).sort()).toEqual(['harness', 'router', 'store', 'transport']);
    expect(row.eras.length).toBeGreaterThan(0);
    for (const era of row.eras) expect(['legacy', 'modern']).toContain(era);
    expect(typeof row.name).toBe('string');
    expect(typeof row.kind).toBe('string');
    expect(row.description.length).toBeGreaterThan(0);
    expect(Array.isArray(row.breaks)).toBe(true);
  }
  expect(list.filter((row) => row.name === 'reference' && row.kind === 'reference' && row.breaks.length === 0)).toHaveLength(1);
  const planted = list.filter((row) => row.kind === 'planted');
  expect(planted.length).toBeGreaterThanOrEqual(8);
  for (const row of planted) expect(row.breaks.length, `${row.name} breaks something`).toBeGreaterThan(0);
  expect(new Set(list.map((row) => row.name)).size).toBe(list.length);
  // The eras each serves: the 1.x SDK the 2025 revisions only, the 2.x dual-era wiring both, the modern-only one 2026-07-28.
  const eras = (name: string) => list.find((row) => row.name === name)?.eras;
  expect(eras('sdk')).toEqual(['legacy']);
  expect(eras('sdk2-dual')).toEqual(['legacy', 'modern']);
  expect(eras('sdk2-modern')).toEqual(['modern']);
}

describe('targets --json', () => {
  it('is the shared envelope around an array of {name, kind, description, breaks} with the reference and at least 8 planted targets', async () => {
    const { code, out, err } = await run(['targets', '--json']);
    expect(code).toBe(0);
    expect(err).toEqual([]);
    checkTargetRows(JSON.parse(out.join('\n')));
  });

  it('the real bin prints the same list (node bin/resumecheck.mjs targets --json)', () => {
    const child = spawnSync(process.execPath, ['bin/resumecheck.mjs', 'targets', '--json'], { cwd: ROOT, encoding: 'utf8' });
    expect(child.stderr).toBe('');
    expect(child.status).toBe(0);
    checkTargetRows(JSON.parse(child.stdout));
  });

  it('the real bin exits 2 with one line on stderr for an unknown command', () => {
    const child = spawnSync(process.execPath, ['bin/resumecheck.mjs', 'frobnicate'], { cwd: ROOT, encoding: 'utf8' });
    expect(child.stdout).toBe('');
    expect(child.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(child.status).toBe(2);
  });
});

// `resumecheck script`: an incident written as action descriptions, one a line, becomes a replayable trace.
const INCIDENT = `# A proxy mixed two tenants' cursors up (seed 004).
client 1 initializes
client 2 initializes
  3. client 1 calls read
client 2 resumes with client 1's cursor
`;

describe('resumecheck script (seed 1)', () => {
  it('reproduces an incident on a target that has the bug: exit 1, and the trace it writes replays to 1', async () => {
    const script = file('incident.txt', INCIDENT);
    const out = join(scratch, 'found');
    const result = await run(['script', script, '--target', 'no-owner-check', '--out', out]);
    expect(result.code).toBe(1);
    expect(result.out.join('\n')).toContain('no-cross-session-delivery violated by no-owner-check');
    const [written] = readdirSync(out);
    expect(written).toMatch(/^no-owner-check--no-cross-session-delivery--[0-9a-f]{16}\.json$/);
    expect((await run(['replay', join(out, written!)])).code).toBe(1);
  });

  it('holds on the reference: exit 0', async () => {
    const script = file('incident-reference.txt', INCIDENT);
    expect((await run(['script', script, '--target', 'reference'])).code).toBe(0);
  });

  it('--version-faults offers the version fault: the reference answers it 400 (exit 0); without the flag the line names no enabled action', async () => {
    const script = file('version.txt', "client 1 initializes\na proxy sends client 1's standalone GET with MCP-Protocol-Version\n");
    const offered = await run(['script', script, '--target', 'reference', '--version-faults']);
    expect(offered.code).toBe(0);
    expect(offered.out).toContain('       GET #2 (standalone stream) MCP-Protocol-Version: 1999-01-01');
    expect(offered.out).toContain('         → 400');
    const refused = await run(['script', script, '--target', 'reference']);
    expect(refused.code).toBe(2);
    expect(refused.err[0]).toContain('step 2: "a proxy sends client 1\'s standalone GET with MCP-Protocol-Version" matches 0 enabled actions');
  });

  it('a line that names no enabled action is bad input: exit 2, one line naming the step', async () => {
    const script = file('bad.txt', 'client 1 initializes\nclient 9 flies\n');
    const result = await run(['script', script, '--target', 'reference']);
    expect(result.code).toBe(2);
    expect(result.out).toEqual([]);
    expect(result.err).toHaveLength(1);
    expect(result.err[0]).toContain('step 2: "client 9 flies" matches 0 enabled actions');
  });
});
