// `resumecheck replay`, `shrink` and `render` take check-store's contract traces as they take every other: a trace of
// the store level (the EventStore driven directly), written by check-store, and one in the format from before the
// store level (read as the store-level trace it is). The module a trace names is imported only when asked to.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { checkContract } from '../check-store/contract-check.ts';
import { moduleSource } from '../targets/module/module.target.ts';
import { writeTrace } from '../traces/store.ts';
import { parseTrace } from '../traces/trace.ts';
import { runInProcess as run } from './run-in-process.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'resumecheck-store-level-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const OLD_FORMAT = join(ROOT, 'traces/render/fixtures/store-contract--sdk-example-store+shared--session-isolation.json');
const EXAMPLE = 'module:check-store/fixtures/sdk-example-store.ts+shared';
const REVERSED = 'module:check-store/fixtures/planted-stores.ts#reversedStore';

describe('a check-store contract trace in the format from before the store level (seed 1.c19)', () => {
  it('is read as a store-level trace of its module', () => {
    const trace = parseTrace(readFileSync(OLD_FORMAT, 'utf8'), OLD_FORMAT);
    expect(trace).toMatchObject({ format: 'resumecheck-trace', level: 'store', target: EXAMPLE, properties: ['session-isolation'] });
    expect(trace.steps.at(-1)).toMatchObject({ phase: 'liveness', action: { kind: 'text', text: 'every held send returns and every call is awaited (end of run)' } });
  });

  it('replays to its verdict on the store level, and on another store to what that one does', async () => {
    const result = await run(['replay', OLD_FORMAT, '--target', EXAMPLE]);
    expect(result.code).toBe(1);
    expect(result.out[0]).toBe(`reproduced: session-isolation on ${EXAMPLE}`);
    // resumecheck's own store, one per session: the same operations isolate the sessions.
    const own = await run(['replay', OLD_FORMAT, '--target', 'module:check-store/fixtures/core-store.ts']);
    expect(own).toMatchObject({ code: 0, out: [`✓ ${OLD_FORMAT}: no violation on module:check-store/fixtures/core-store.ts (the trace recorded session-isolation: it now holds)`] });
  });

  it('names the module it would import, and runs nothing unless asked (exit 2, one line)', async () => {
    const result = await run(['replay', OLD_FORMAT]);
    expect(result.code).toBe(2);
    expect(result.err).toEqual([expect.stringMatching(/would import the module "check-store\/fixtures\/sdk-example-store\.ts\+shared".*--target module:check-store\/fixtures\/sdk-example-store\.ts\+shared/)]);
  });

  it('runs only on a store module: another target is bad input, one line', async () => {
    const result = await run(['replay', OLD_FORMAT, '--target', 'reference']);
    expect(result.code).toBe(2);
    expect(result.err).toEqual(['resumecheck: a store-level trace runs a store module: its target must be module:PATH[#export][+shared][+durable], not "reference"']);
  });
});

describe('a store-level trace check-store writes (reversedStore, seed 1)', async () => {
  const outcome = await checkContract(moduleSource({ path: 'check-store/fixtures/planted-stores.ts', exportName: 'reversedStore' }), { shared: false, runs: 5, seed: '1', distinctMax: 1 });
  const finding = outcome.findings.find((candidate) => candidate.trace.verdict.property === 'replay-exact')!;
  const file = writeTrace(scratch, finding.trace).path;

  it('says its level and its store', () => {
    expect(finding.trace).toMatchObject({ level: 'store', target: REVERSED });
    // The properties its run checked: the contract phase's.
    expect(finding.trace.properties).toContain('replay-exact');
  });

  it('replays to its verdict', async () => {
    const result = await run(['replay', file, '--target', REVERSED]);
    expect(result.code).toBe(1);
    expect(result.out[0]).toBe(`reproduced: replay-exact on ${REVERSED}`);
  });

  it('renders as text, Mermaid and HTML, with a lane per session and the store', async () => {
    const text = await run(['render', file]);
    expect(text.code).toBe(0);
    const lines = text.out.join('\n').split('\n');
    expect(lines[0]).toBe(`✗ replay-exact violated by ${REVERSED} (contract)`);
    expect(lines).toContain('  7. every held send returns and every call is awaited (end of run)   (liveness phase: faults stopped)');
    // The target holds a `#`: the command quotes it for a shell.
    expect(lines.at(-1)).toBe(`replay it:     npx resumecheck replay ${file} --target '${REVERSED}'`);
    const mermaid = await run(['render', file, '--format', 'mermaid']);
    expect(mermaid.out.join('\n')).toContain('participant STORE as event store');
    const html = await run(['render', file, '--format', 'html']);
    expect(html.out.join('\n').startsWith('<!DOCTYPE html>\n')).toBe(true);
  });

  it('shrinks into a store-level trace beside it that still fails the same way', async () => {
    const result = await run(['shrink', file, '--allow-trace-command']);
    expect(result.code).toBe(1);
    expect(result.out[0]).toMatch(new RegExp(`^shrunk .* from ${finding.trace.choices.length} to \\d+ steps in \\d+ runs; replay-exact still fails on ${REVERSED.replace(/[.+#]/g, '\\$&')}$`));
    const shrunk = file.replace(/\.json$/, '.shrunk.json');
    const trace = parseTrace(readFileSync(shrunk, 'utf8'), shrunk);
    expect(trace).toMatchObject({ level: 'store', target: REVERSED });
    expect(trace.choices.length).toBeLessThanOrEqual(finding.trace.choices.length);
    expect((await run(['replay', shrunk, '--target', REVERSED])).out[0]).toBe(`reproduced: replay-exact on ${REVERSED}`);
  });
});
