// Attribution by replay (sim/shrink/attribution.ts): a kept counterexample of an SDK target is charged to the component whose
// replacement by a correct one makes the same steps hold, to the transport when nothing replaced does, to the
// harness's client when the client broke a requestor's rule first; a target that is one system gets none.

import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { referenceTarget } from '../../targets/reference/reference.target.ts';
import { targetEntry } from '../../targets/registry.ts';
import type { Target } from '../../targets/target.ts';
import { readTrace } from '../../traces/store.ts';
import { attributeFinding } from './attribution.ts';

const CORPUS = fileURLToPath(new URL('../../traces/corpus/', import.meta.url));

async function attributeKept(file: string) {
  const trace = readTrace(join(CORPUS, file));
  const target = (await targetEntry(trace.target)?.load())!;
  return attributeFinding(target, { config: trace.config, choices: trace.choices, verdict: trace.verdict! });
}

describe('attribution by replay', () => {
  it.each([
    // The example store's same-millisecond order: a correct store under the same transport and router holds.
    ['sdk--no-redelivery.json', ['store'], [['store', 'holds'], ['router', 'violated']]],
    ['sdk2-example--well-formed-messages.json', ['store'], [['store', 'holds'], ['router', 'violated']]],
    // A store shared by every session replays one session's result into another: one store per session holds.
    ['sdk2-shared--no-cross-session-delivery.json', ['store'], [['store', 'holds'], ['router', 'violated']]],
    // A re-sent request ID runs again whatever the store and router: the package's transport.
    ['sdk-core--exactly-once-execution.json', ['transport'], [['store', 'violated'], ['router', 'violated'], ['store+router', 'violated']]],
    // An unplaced request handed to a new transport gets its 400: the specification's routing answers 404.
    ['sdk2-dual-bare--status-codes.json', ['router'], [['store', 'violated'], ['router', 'holds']]],
  ])('%s is charged to %j', async (file, charged, checks) => {
    const attribution = await attributeKept(file);
    expect(attribution?.charged).toEqual(charged);
    expect(attribution?.checks.map((check) => [check.replaced.join('+'), check.outcome])).toEqual(checks);
    expect(attribution?.component).toMatch(new RegExp(`^${charged[0]}: `));
  });

  it("names the transport with the package as installed, and the store as the target describes it", async () => {
    expect((await attributeKept('sdk2-core--exactly-once-execution.json'))?.component).toBe('transport: @modelcontextprotocol/server@2.4.0');
    expect((await attributeKept('sdk--no-hang.json'))?.component).toMatch(/^store: 1\.x example InMemoryEventStore .*one per session/);
  });

  it("charges a finding the simulated client triggered (a request ID reused in flight) to the harness, replaying nothing", async () => {
    const trace = readTrace(join(CORPUS, 'sdk-core--exactly-once-execution.json'));
    const target = (await targetEntry('sdk-core')?.load())!;
    const triggeredBy = { step: 2, action: 'a proxy re-sends c1 (read, request 2) of client 1 while it is in flight', modern: false };
    const attribution = await attributeFinding(target, { config: trace.config, choices: trace.choices, verdict: { ...trace.verdict!, triggeredBy } });
    expect(attribution).toMatchObject({ charged: ['harness'], checks: [] });
    expect(attribution?.evidence).toMatch(/broke a requestor's MUST NOT first, at step 3/);
  });

  it('gives no attribution on a target that is one system, and none that can be trusted when the steps do not reproduce', async () => {
    const trace = readTrace(join(CORPUS, 'sdk--no-redelivery.json'));
    expect(await attributeFinding(referenceTarget, { config: trace.config, choices: trace.choices, verdict: trace.verdict! })).toBeNull();
    // The reference dressed as an assembled target: the same steps hold on it, so there is nothing to charge.
    const dressed: Target = { ...referenceTarget, components: { transport: 'x', store: 'y', router: 'z', harness: 'h' }, replaced: () => referenceTarget };
    expect(await attributeFinding(dressed, { config: trace.config, choices: trace.choices, verdict: trace.verdict! })).toMatchObject({ charged: [] });
  });
});
