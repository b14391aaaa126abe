// A server that starts a probe call's tool later than the quiet interval after taking its request (a proxy handing
// the call on to a child process over stdio, as mcp-proxy does) is waited for: a settle waits for the start of every
// call whose request the server took, so the run does not go on, end, and read the call as never answered.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { main } from '../../cli/main.ts';

const scratch = mkdtempSync(join(tmpdir(), 'resumecheck-late-start-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const LATE_START = new URL('./fixtures/late-start.mjs', import.meta.url).href;
const ENVIRONMENT = { NODE_OPTIONS: process.env.NODE_OPTIONS, RESUMECHECK_TEST_START_DELAY_MS: process.env.RESUMECHECK_TEST_START_DELAY_MS };

afterEach(() => {
  for (const [name, value] of Object.entries(ENVIRONMENT)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe('a probe tool that starts late', () => {
  it('is waited for: every call the server took is answered, and none reads as lost', async () => {
    // Half a second late: far past the quiet interval (15 ms), within the settle's bound (2 s).
    Object.assign(process.env, { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${LATE_START}`.trim(), RESUMECHECK_TEST_START_DELAY_MS: '500' });
    const summary = join(scratch, 'summary.json');
    const out: string[] = [];
    const code = await main(['fuzz', '--serve', 'node examples/probe-server.mjs --sdk', '--runs', '2', '--steps', '6', '--restarts', '0', '--no-corpus', '--out', join(scratch, 'found'), '--summary', summary, '--property', 'no-lost-result'], { out: (line) => out.push(line), err: (line) => out.push(line) });
    const text = out.join('\n');
    const document = JSON.parse(readFileSync(summary, 'utf8')) as { violations: { property: string }[] };
    expect(document.violations.map((violation) => violation.property), text).toEqual([]);
    const calls = /calls\s+(\d+) tool calls? made, (\d+) responses? to them received/.exec(text);
    expect(calls, text).not.toBeNull();
    expect(Number(calls![1])).toBeGreaterThan(0);
    expect(Number(calls![2])).toBeGreaterThan(0);
    expect(text).not.toMatch(/cut short waiting for: the start of/);
    expect(code, text).toBe(0);
  });
});
