// `resumecheck script`: an incident written as action descriptions, one a line, becomes a replayable trace.

import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from './main.ts';

const scratch = mkdtempSync(join(tmpdir(), 'resumecheck-script-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function run(args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out, err };
}

const INCIDENT = `# A proxy mixed two tenants' cursors up (seed 004).
client 1 initializes
client 2 initializes
  3. client 1 calls read
client 2 resumes with client 1's cursor
`;

describe('resumecheck script (seed 1)', () => {
  it('reproduces an incident on a target that has the bug: exit 1, and the trace it writes replays to 1', async () => {
    const script = join(scratch, 'incident.txt');
    writeFileSync(script, INCIDENT);
    const out = join(scratch, 'found');
    const result = await run(['script', script, '--target', 'no-owner-check', '--out', out]);
    expect(result.code).toBe(1);
    expect(result.out.join('\n')).toContain('no-cross-session-delivery violated by no-owner-check');
    const [written] = readdirSync(out);
    expect(written).toMatch(/^no-owner-check--no-cross-session-delivery--[0-9a-f]{16}\.json$/);
    expect((await run(['replay', join(out, written!)])).code).toBe(1);
  });

  it('holds on the reference: exit 0', async () => {
    const script = join(scratch, 'incident-reference.txt');
    writeFileSync(script, INCIDENT);
    expect((await run(['script', script, '--target', 'reference'])).code).toBe(0);
  });

  it('a line that names no enabled action is bad input: exit 2, one line naming the step', async () => {
    const script = join(scratch, 'bad.txt');
    writeFileSync(script, 'client 1 initializes\nclient 9 flies\n');
    const result = await run(['script', script, '--target', 'reference']);
    expect(result.code).toBe(2);
    expect(result.out).toEqual([]);
    expect(result.err).toHaveLength(1);
    expect(result.err[0]).toContain('step 2: "client 9 flies" matches 0 enabled actions');
  });
});
