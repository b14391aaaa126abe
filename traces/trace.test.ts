// The trace format's SDK field: a trace records the SDK its target ran (as installed), and traces written before the
// field existed still read, saying they do not know.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../sim/config.ts';
import { recordTrace } from '../sim/search/fuzz.ts';
import { targetEntry } from '../targets/registry.ts';
import type { Target } from '../targets/target.ts';
import { parseTrace, serializeTrace } from './trace.ts';

const CORPUS_TRACE = new URL('./corpus/sdk-core--no-hang.json', import.meta.url);

async function target(name: string): Promise<Target> {
  const entry = targetEntry(name);
  if (entry === undefined) throw new Error(`no target ${name}`);
  return entry.load();
}

describe('the sdk field of a trace', () => {
  it('is read back as written, and a trace without it (written before it existed) reads with sdk null', () => {
    const text = readFileSync(CORPUS_TRACE, 'utf8');
    const trace = parseTrace(text, 'corpus');
    expect(trace.sdk).toBe('@modelcontextprotocol/sdk@1.32.2');
    expect(parseTrace(serializeTrace(trace), 'again')).toEqual(trace);
    const old = JSON.parse(text) as Record<string, unknown>;
    delete old['sdk'];
    expect(parseTrace(JSON.stringify(old), 'old').sdk).toBeNull();
    expect(parseTrace(JSON.stringify({ ...old, sdk: 7 }), 'odd').sdk).toBeNull();
  });

  it.each([
    ['sdk2-core', '@modelcontextprotocol/server@2.4.0'],
    ['sdk', '@modelcontextprotocol/sdk@1.32.2'],
    ['reference', null],
  ] as const)('seed t1: a recorded run of %s records sdk %s', async (name, sdk) => {
    const config = resolveConfig({ seed: 't1' });
    const trace = await recordTrace(await target(name), config, [0, 0], null);
    expect(trace.sdk).toBe(sdk);
    expect(serializeTrace(trace)).toContain(sdk === null ? '"sdk": null' : `"sdk": "${sdk}"`);
  });
});
