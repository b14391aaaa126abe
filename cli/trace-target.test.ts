// A trace is data, never a command: replay, shrink, render, fuzz's corpus replay and check-store --replay never start a
// shell command or import a module a trace names (serve:CMD, module:PATH, a contract trace's store) unless the user
// names it too or passes --allow-trace-command.
// Each command here would leave a file behind if it ran: a real child process for serve:, a real import for module:.

import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { CONTRACT_TRACE_FORMAT } from '../traces/contract-trace.ts';
import { resolveConfig } from '../sim/config.ts';
import { recordTrace } from '../sim/search/fuzz.ts';
import { referenceTarget } from '../targets/reference/reference.target.ts';
import { serializeTrace } from '../traces/trace.ts';
import { runInProcess } from './run-in-process.ts';
import { traceExecution } from './trace-target.ts';

const scratch = mkdtempSync(join(tmpdir(), 'resumecheck-trace-target-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The file the served command creates when it runs (it then exits, which the wire reports as bad input). */
const served = join(scratch, 'served-ran');
/** The file the module creates when it is imported. */
const imported = join(scratch, 'module-imported');
const command = `node -e "require('node:fs').writeFileSync(process.argv[1], '')" ${served}`;
const modulePath = join(scratch, 'store.mjs');
writeFileSync(modulePath, `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(imported)}, '');\nexport default () => ({});\n`);

/** The file the store module of the contract trace creates when it is imported. */
const storeImported = join(scratch, 'store-imported');
/** A store module (a working one: a list of events) whose import leaves a file behind. */
const storeModulePath = join(scratch, 'list-store.mjs');
writeFileSync(
  storeModulePath,
  [
    "import { writeFileSync } from 'node:fs';",
    `writeFileSync(${JSON.stringify(storeImported)}, '');`,
    'export default () => {',
    '  const events = [];',
    '  return {',
    '    async storeEvent(streamId, message) { const eventId = `${streamId}.${events.length}`; events.push({ eventId, streamId, message }); return eventId; },',
    '    async replayEventsAfter(lastEventId, { send }) {',
    '      const at = events.findIndex((event) => event.eventId === lastEventId);',
    "      if (at < 0) return '';",
    '      for (const event of events.slice(at + 1)) if (event.streamId === events[at].streamId) await send(event.eventId, event.message);',
    '      return events[at].streamId;',
    '    },',
    '  };',
    '};',
    '',
  ].join('\n'),
);

/**
 * A contract trace (check-store's format from before the store level, which is still read) naming `storeModulePath`
 * as its store: no operations, a verdict to re-check.
 */
function contractTraceNamingTheStore(): string {
  const trace = {
    format: CONTRACT_TRACE_FORMAT,
    formatVersion: 1,
    resumecheckVersion: 'test',
    store: { path: storeModulePath, exportName: null },
    config: { seed: 'trace-target', shared: false, stepsMax: 12, sessionsPerEpochMax: 2, postStreamsPerSessionMax: 2, eventsPerStreamMax: 3, restartsMax: 1, windowEventsMax: 4 },
    choices: [],
    steps: [],
    verdict: { property: 'replay-exact', step: 0, explanation: 'recorded by the test' },
    shrink: null,
  };
  const path = join(scratch, 'store-contract.json');
  writeFileSync(path, `${JSON.stringify(trace, null, 2)}\n`);
  return path;
}

async function traceNaming(target: string, name: string, directory = scratch): Promise<string> {
  const trace = await recordTrace(referenceTarget, resolveConfig({ seed: 'trace-target' }), [0, 0, 0], null);
  const path = join(directory, name);
  writeFileSync(path, serializeTrace({ ...trace, target }));
  return path;
}

beforeEach(() => {
  rmSync(served, { force: true });
  rmSync(imported, { force: true });
  rmSync(storeImported, { force: true });
});

describe('traceExecution: what a target name would run', () => {
  it('names a served command and a module (alone or as a multi-node base); nothing for built-in targets and URLs', () => {
    expect(traceExecution('serve:touch x')).toMatchObject({ kind: 'command', what: 'touch x', flag: "--serve 'touch x'" });
    expect(traceExecution('serve-node:touch x@2:sticky')).toMatchObject({ kind: 'command', what: 'touch x', flag: "--serve-node 'touch x'" });
    expect(traceExecution('module:./store.ts#make+shared')).toMatchObject({ kind: 'module', flag: "--target 'module:./store.ts#make+shared'" });
    expect(traceExecution('module:./store.ts@3:round-robin')?.kind).toBe('module');
    expect(traceExecution('reference')).toBeNull();
    expect(traceExecution('reference@3:round-robin')).toBeNull();
    expect(traceExecution('url:http://127.0.0.1:3000/mcp')).toBeNull();
  });
});

describe('a serve:CMD trace', () => {
  it('replay: exit 2, one line saying what it would run and how to allow it; the command did not run', async () => {
    const file = await traceNaming(`serve:${command}`, 'served.json');
    const result = await runInProcess(['replay', file]);
    expect(result.code).toBe(2);
    expect(result.out).toEqual([]);
    expect(result.err).toHaveLength(1);
    expect(result.err[0]).toContain('would start the shell command');
    expect(result.err[0]).toContain('--serve');
    expect(result.err[0]).toContain('--allow-trace-command');
    expect(existsSync(served)).toBe(false);
  });

  it('replay --allow-trace-command: says what it runs first, then runs it', async () => {
    const file = await traceNaming(`serve:${command}`, 'served.json');
    const result = await runInProcess(['replay', file, '--allow-trace-command']);
    expect(result.err[0]).toContain('about to start the shell command');
    expect(existsSync(served)).toBe(true);
    // The command writes its file and exits without listening: bad input, one more line.
    expect(result.code).toBe(2);
  });

  it('shrink: exit 2 (it shrinks in process), the command not run', async () => {
    const file = await traceNaming(`serve:${command}`, 'served-shrink.json');
    const result = await runInProcess(['shrink', file, '--allow-trace-command']);
    expect(result.code).toBe(2);
    expect(result.err).toHaveLength(1);
    expect(result.err[0]).toContain('shrink runs in process');
    expect(existsSync(served)).toBe(false);
  });

  it('render shows it and runs nothing', async () => {
    const file = await traceNaming(`serve:${command}`, 'served-render.json');
    const result = await runInProcess(['render', file]);
    expect(result.code).toBe(0);
    expect(existsSync(served)).toBe(false);
  });
});

describe('a serve-node:CMD@N:BALANCER trace', () => {
  it('replay: exit 2, one line naming --serve-node; shrink: exit 2; the command ran in neither', async () => {
    const file = await traceNaming(`serve-node:${command}@2:sticky`, 'served-nodes.json');
    const replayed = await runInProcess(['replay', file]);
    expect(replayed.code).toBe(2);
    expect(replayed.err).toHaveLength(1);
    expect(replayed.err[0]).toContain('would start the shell command');
    expect(replayed.err[0]).toContain('--serve-node');
    const shrunk = await runInProcess(['shrink', file, '--allow-trace-command']);
    expect(shrunk.code).toBe(2);
    expect(shrunk.err[0]).toContain('shrink runs in process');
    expect(existsSync(served)).toBe(false);
  });
});

describe('a module:PATH trace', () => {
  it('replay and shrink: exit 2, one line; the module was not imported', async () => {
    const file = await traceNaming(`module:${modulePath}`, 'module.json');
    for (const command of ['replay', 'shrink']) {
      const result = await runInProcess([command, file]);
      expect(result.code, command).toBe(2);
      expect(result.err, command).toHaveLength(1);
      expect(result.err[0], command).toContain('would import the module');
      expect(result.err[0], command).toContain(`--target module:${modulePath}`);
      expect(existsSync(imported), command).toBe(false);
    }
  });

  it('replay --allow-trace-command imports it, saying so first', async () => {
    const file = await traceNaming(`module:${modulePath}`, 'module.json');
    const result = await runInProcess(['replay', file, '--allow-trace-command']);
    expect(result.err[0]).toContain('about to import the module');
    expect(existsSync(imported)).toBe(true);
  });
});

describe("fuzz's corpus replay", () => {
  it('replays only traces of the target the command line names: the others are not run, and one line says so', async () => {
    const corpus = join(scratch, 'corpus');
    mkdirSync(corpus, { recursive: true });
    await traceNaming(`serve:${command}`, 'a-served.json', corpus);
    await traceNaming(`module:${modulePath}`, 'b-module.json', corpus);
    const result = await runInProcess(['fuzz', '--target', 'reference', '--runs', '1', '--corpus', corpus, '--out', join(scratch, 'found')]);
    expect(result.code).toBe(0);
    expect(existsSync(served)).toBe(false);
    expect(existsSync(imported)).toBe(false);
    const lines = result.err.filter((line) => line.includes('a command or a module'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('2 stored traces');
  });
});

describe('a check-store contract trace (its store module)', () => {
  it('check-store --replay: exit 2, one line saying what it would import and how to allow it; the module was not imported', async () => {
    const file = contractTraceNamingTheStore();
    const result = await runInProcess(['check-store', '--replay', file]);
    expect(result.code).toBe(2);
    expect(result.out).toEqual([]);
    expect(result.err).toHaveLength(1);
    expect(result.err[0]).toContain(`would import the module ${JSON.stringify(storeModulePath)}`);
    expect(result.err[0]).toContain(`check-store ${storeModulePath} --replay ${file}`);
    expect(result.err[0]).toContain('--allow-trace-command');
    expect(existsSync(storeImported)).toBe(false);
  });

  it('check-store --replay --allow-trace-command imports it, saying so first', async () => {
    const file = contractTraceNamingTheStore();
    const result = await runInProcess(['check-store', '--replay', file, '--allow-trace-command']);
    expect(result.err[0]).toBe(`resumecheck: --allow-trace-command: ${file} names its store; about to import the module ${JSON.stringify(storeModulePath)}`);
    expect(existsSync(storeImported)).toBe(true);
    expect(result.out[0]).toMatch(/^✓ .*: no contract violation by /);
    expect(result.code).toBe(0);
  });

  it('check-store MODULE --replay: the module the command line names is imported, with no opt-in', async () => {
    const file = contractTraceNamingTheStore();
    const result = await runInProcess(['check-store', storeModulePath, '--replay', file]);
    expect(result.err).toEqual([]);
    expect(existsSync(storeImported)).toBe(true);
    expect(result.code).toBe(0);
  });

  it('--allow-trace-command without --replay is bad input', async () => {
    const result = await runInProcess(['check-store', storeModulePath, '--allow-trace-command']);
    expect(result.code).toBe(2);
    expect(result.err).toEqual(['resumecheck: --allow-trace-command goes with --replay FILE']);
    expect(existsSync(storeImported)).toBe(false);
  });
});
