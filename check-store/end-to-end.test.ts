// The end-to-end phase on planted stores: a store defect is found inside the real SDK transport, told apart from the
// transport's own defects by running the same choices on sdk-core, shrunk and written as a trace `resumecheck replay`
// reproduces; a store whose calls fail or hang is reported, never left to crash or hang the check.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../cli/main.ts';
import { moduleSource } from '../targets/module/module.target.ts';
import { writeTrace } from '../traces/store.ts';
import { checkEndToEnd } from './end-to-end.ts';

// Every folder this file writes lies under one scratch folder, removed when the file's tests end.
const scratch = mkdtempSync(join(tmpdir(), 'resumecheck-e2e-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const PLANTED = 'check-store/fixtures/planted-stores.ts';
const SEED = '1';

function planted(exportName: string) {
  return moduleSource({ path: PLANTED, exportName });
}

describe(`end-to-end phase, seed ${SEED}`, () => {
  it('a store that replays in reverse is caught inside the transport; its trace replays to 1 on it and to 0 on sdk-core', async () => {
    const outcome = await checkEndToEnd(planted('reversedStore'), { shared: false, runs: 40, seed: SEED });
    expect(outcome.findings[0]?.kind).toBe('violation');
    if (outcome.findings[0]?.kind !== 'violation') return;
    const { trace } = outcome.findings[0];
    expect(trace.target).toBe(`module:${PLANTED}#reversedStore`);
    expect(trace.choices.length).toBeLessThanOrEqual(outcome.findings[0].originalLength);
    const { path } = writeTrace(mkdtempSync(join(scratch, 'out-')), trace);
    const lines: string[] = [];
    const io = { out: (line: string) => lines.push(line), err: (line: string) => lines.push(line) };
    // A trace is data: the module it names is imported when the command line names it too. in-order-per-stream is
    // seed advice: the replay fails with --strict=advice.
    expect(await main(['replay', path, '--target', trace.target, '--strict=advice'], io)).toBe(1);
    expect(lines[0]).toBe(`reproduced: ${trace.verdict!.property} on module:${PLANTED}#reversedStore`);
    expect(await main(['replay', path, '--target', 'sdk-core'], io)).toBe(0);
  });

  it('a correct store passes, the transport defects reported apart', async () => {
    const outcome = await checkEndToEnd(planted('listStore'), { shared: false, runs: 30, seed: SEED });
    expect(outcome.findings).toEqual([]);
    expect(outcome.transportDefects.map((defect) => defect.property)).toContain('exactly-once-execution');
  });

  it('a store whose storeEvent rejects makes runs fail: reported as the store failing, shrunk, not a crash', async () => {
    const outcome = await checkEndToEnd(planted('throwingStore'), { shared: false, runs: 30, seed: SEED });
    expect(outcome.findings[0]?.kind).toBe('failure');
    if (outcome.findings[0]?.kind !== 'failure') return;
    expect(outcome.findings[0].explanation).toMatch(/disk full \(sdk-core completes the same actions\)/);
    expect(outcome.findings[0].steps.length).toBe(outcome.findings[0].choices.length);
  });

  it('a store call that never settles is reported, and the check does not hang', async () => {
    const outcome = await checkEndToEnd(planted('stuckStore'), { shared: false, runs: 30, seed: SEED, callTimeoutMs: 200 });
    expect(outcome.findings[0]).toMatchObject({ kind: 'hang', explanation: expect.stringMatching(/^storeEvent\(.*\) did not settle within 200 ms$/) });
  });
});
