// The one target resolver: every form a target is given in (a built-in name, `module:PATH`, `NAME@N:BALANCER`, the
// `--nodes` flags, `--serve`, `--url`) gives the same description from the CLI's flags as from the target's name, the
// description crosses to a worker as plain data and builds the same target there; and a fuzz on a deployment of the
// SDK gives the same summary in 2 threads as in 1.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeTargetFlags } from '../cli/require-target.ts';
import { runInProcess } from '../cli/run-in-process.ts';
import { referenceTarget } from './reference/reference.target.ts';
import { TargetResolutionError, describeTargetName, resolveTarget, targetNameOf, workerDescriptionOf } from './resolve-target.ts';
import { multiNodeTarget } from './multi-node/multi-node.target.ts';

const scratch = mkdtempSync(join(tmpdir(), 'resumecheck-resolve-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const STORE = 'module:check-store/fixtures/core-store.ts';

/** Each form: the flags the CLI is given, and the target name its traces record. */
const FORMS: readonly (readonly [string, Record<string, string>, string])[] = [
  ['a built-in name', { target: 'reference' }, 'reference'],
  ['an SDK target', { target: 'sdk-core' }, 'sdk-core'],
  ['a store module', { target: STORE }, STORE],
  ['a deployment by name', { target: 'reference@3:sticky:lag2' }, 'reference@3:sticky:lag2'],
  ['a deployment by flags', { target: 'sdk', nodes: '2', balancer: 'round-robin' }, 'sdk@2:round-robin'],
  ['a store module deployed', { target: STORE, nodes: '2', balancer: 'failover' }, `${STORE}@2:failover`],
  ['a served server', { serve: 'node probe-server.mjs' }, 'serve:node probe-server.mjs'],
  ['a remote server', { url: 'http://127.0.0.1:9/mcp' }, 'url:http://127.0.0.1:9/mcp'],
];

describe('every form resolves the same from the CLI\'s flags, from its name, and in a worker', () => {
  for (const [what, flags, name] of FORMS) {
    it(`${what}: ${name}`, async () => {
      const fromFlags = await describeTargetFlags(flags);
      expect(targetNameOf(fromFlags)).toBe(name);
      expect(await describeTargetName(name)).toEqual(fromFlags);
      // What a worker is sent is plain data: a structured clone (what postMessage makes) is the same description.
      const sent = structuredClone(fromFlags);
      expect(sent).toEqual(fromFlags);
      if (fromFlags.form === 'served' || fromFlags.form === 'remote') return;
      const here = await resolveTarget(fromFlags);
      const there = await resolveTarget(sent);
      expect(here.name).toBe(name);
      expect(there.name).toBe(name);
      expect(there.kind).toBe(here.kind);
      // A target the resolver built is one a worker can build again, from the description it was built from.
      expect(await workerDescriptionOf(here)).toEqual(fromFlags);
    });
  }

  it('a built-in target imported directly is the registry\'s own; a target made elsewhere cannot go to a worker', async () => {
    expect(await workerDescriptionOf(referenceTarget)).toEqual({ form: 'built-in', name: 'reference' });
    expect(await workerDescriptionOf(multiNodeTarget(referenceTarget, { nodes: 2, balancer: 'sticky', storeLagSteps: 0 }))).toBeNull();
    expect(await workerDescriptionOf({ ...referenceTarget })).toBeNull();
  });

  it('bad input is the resolver\'s error, one line', async () => {
    await expect(resolveTarget(await describeTargetName('no-such-target'))).rejects.toThrow(TargetResolutionError);
    await expect(describeTargetName('reference@12:sticky')).rejects.toThrow(/target "reference@12:sticky": --nodes/);
    await expect(resolveTarget(await describeTargetName('sdk-core@2:sticky:lag1'))).rejects.toThrow(/--store-lag applies to the kit targets/);
    await expect(describeTargetFlags({ target: 'reference@2:sticky', nodes: '3' })).rejects.toThrow(/already names its nodes/);
    await expect(describeTargetFlags({ url: 'http://127.0.0.1:9/mcp', nodes: '2' })).rejects.toThrow(/go with --target/);
    await expect(resolveTarget(await describeTargetName('client-sdk@2:sticky'))).rejects.toThrow(/client-sdk is a client-level target; --nodes deploys a server target/);
  });
});

describe('a fuzz on sdk@2:round-robin in 2 threads (seed 1)', () => {
  it('gives the same summary as in 1 thread (seed 1, 12 runs)', async () => {
    const summary = async (workers: string): Promise<Record<string, unknown>> => {
      const out = join(scratch, `found-${workers}`);
      const result = await runInProcess(['fuzz', '--target', 'sdk', '--nodes', '2', '--balancer', 'round-robin', '--runs', '12', '--seed', '1', '--workers', workers, '--no-corpus', '--out', out, '--json']);
      expect(result.err).toEqual([]);
      // The command's own config (which names the worker count) and its wall time aside, the result fields.
      const { config: _config, elapsedMs: _elapsedMs, ...fields } = JSON.parse(result.out.at(-1)!) as Record<string, unknown>;
      return { code: result.code, ...withoutFolder(fields, out) };
    };
    const one = await summary('1');
    const two = await summary('2');
    expect(one['target']).toBe('sdk@2:round-robin');
    expect(one['runs']).toBe(12);
    expect(two).toEqual(one);
  });
});

/** A fuzz's JSON result with its output folder (one per run here) written OUT. */
function withoutFolder(result: Record<string, unknown>, out: string): Record<string, unknown> {
  // Paths are printed relative to the working directory: from a checkout beside the scratch folder (a clone in /tmp)
  // that relative path does not contain the absolute one.
  const shown = relative(process.cwd(), out);
  return JSON.parse(JSON.stringify(result).replaceAll(out, 'OUT').replaceAll(shown, 'OUT')) as Record<string, unknown>;
}
