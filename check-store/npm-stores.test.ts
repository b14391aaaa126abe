// The real stores shipped in npm packages, as check-store/README.md reports them: the copy of server-everything's
// store is still the package's text, and the verdicts hold (few runs here; the README's figures are from more).

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkEventStore } from './check-event-store.ts';

const FIXTURES = 'check-store/fixtures';

function verbatim(file: string): string {
  const text = readFileSync(file, 'utf8');
  const begin = text.indexOf('\n', text.indexOf('// BEGIN verbatim'));
  return text.slice(begin + 1, text.indexOf('// END verbatim'));
}

describe('npm packages\' event stores, seed 1', () => {
  it('the server-everything copy is the installed package\'s text', () => {
    const shipped = readFileSync('node_modules/@modelcontextprotocol/server-everything/dist/transports/streamableHttp.js', 'utf8').split('\n');
    expect(verbatim(`${FIXTURES}/server-everything-store.js`)).toBe(`${shipped.slice(6, 27).join('\n')}\n`);
  });

  it('mcp-proxy\'s InMemoryEventStore with its default cap holds', async () => {
    const result = await checkEventStore(`${FIXTURES}/mcp-proxy-store.ts`, { runs: 20 });
    expect(result.violations.map((violation) => violation.property)).toEqual([]);
  });

  it('server-everything\'s store fails replay-exact: it returns an event ID where the stream ID is due', async () => {
    const result = await checkEventStore(`${FIXTURES}/server-everything-store.js`, { runs: 3, endToEndRuns: 0 });
    expect(result.holds).toBe(false);
    expect(result.violations.find((violation) => violation.property === 'replay-exact')?.explanation).toMatch(/the store returned "[0-9a-f-]{36}" instead of the stream's ID/);
  });

  it("server-everything's store, end to end: cross-stream replays and the stored priming placeholder are the store's, shrunk, never the transport's", async () => {
    const result = await checkEventStore(`${FIXTURES}/server-everything-store.js`, { contractRuns: 1, endToEndRuns: 45 });
    const endToEnd = result.violations.filter((violation) => violation.phase === 'end-to-end' && violation.severity === 'failure');
    expect([...new Set(endToEnd.map((violation) => violation.property))].sort()).toEqual(['no-cross-stream-replay', 'well-formed-messages']);
    // Each judged against sdk-core on the actions up to its violation, and shrunk so: none flaky, none the transport's.
    expect(endToEnd.every((violation) => violation.flaky === null && violation.shrink !== null && violation.shrink.shrunkLength <= 5)).toBe(true);
    expect(result.transportDefects.map((defect) => defect.property)).not.toContain('no-cross-stream-replay');
    expect(result.transportDefects.map((defect) => defect.property)).not.toContain('well-formed-messages');
  });

  it('the agents Durable Object store holds with --durable (advice only: a forged cursor names its stream)', async () => {
    const result = await checkEventStore(`${FIXTURES}/agents-durable-object-store.js`, { runs: 20, durable: true });
    expect(result.holds).toBe(true);
    // Seed advice (IDs repeated across sessions, a forged cursor naming a stream): found, never failing by default ...
    expect(result.violations.every((violation) => violation.severity === 'advice')).toBe(true);
    expect(result.violations.length).toBeGreaterThan(0);
    // ... and failing the check with strict: 'advice'.
    const strict = await checkEventStore(`${FIXTURES}/agents-durable-object-store.js`, { runs: 20, durable: true, strict: 'advice' });
    expect(strict.holds).toBe(false);
  });
});
