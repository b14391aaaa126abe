// The store level (an EventStore driven directly) through the engine's one loop: a run is a pure function of (target,
// config, choices); calls started in consecutive steps overlap (the engine does not yield between steps that start
// work without waiting for it); the fault phase ends at the first call timeout; and what the judge found reaches the
// level's onRunEnd whatever the run was asked to check.

import { describe, expect, it } from 'vitest';
import { moduleSource } from '../../targets/module/module.target.ts';
import { storeLevelTarget } from '../../targets/module/store-level.target.ts';
import { serializeTrace } from '../../traces/trace.ts';
import { levelWalk, sequenceChoices } from '../choices.ts';
import { runSimulation } from '../engine.ts';
import { recordTrace } from '../search/fuzz.ts';
import { eachViolation } from '../search/fuzz-search.ts';
import { STORE_PROPERTY_NAMES } from '../../properties/names.ts';
import { scriptChoices } from '../shrink/script.ts';
import { type StoreRunReport, storeLevelConfig } from './store-level.ts';
import { levelOf } from './level.ts';
import { traceLines } from './vocabulary.ts';

const PLANTED = 'check-store/fixtures/planted-stores.ts';

function planted(exportName: string, onRunEnd?: (report: StoreRunReport) => void) {
  return storeLevelTarget(moduleSource({ path: PLANTED, exportName }), { shared: false, durable: false, ...(onRunEnd === undefined ? {} : { onRunEnd }) });
}

/** Two notifications stored on one stream in consecutive steps, neither awaited before the other starts. */
const OVERLAPPING = ['a new session opens (incarnation 1)', 'storeEvent of a notification on A.standalone', 'storeEvent of a notification on A.standalone'];

describe('the store level', () => {
  it('records byte-identical traces for the same seed and choices (reversedStore, seed s.3)', async () => {
    const target = planted('reversedStore');
    const config = storeLevelConfig('s.3');
    const walked = await runSimulation(target, config, levelWalk(config, levelOf(target)));
    const first = serializeTrace(await recordTrace(target, config, walked.choices, null));
    expect(walked.steps).toBeGreaterThan(0);
    expect(serializeTrace(await recordTrace(target, config, walked.choices, null))).toBe(first);
    expect(JSON.parse(first)).toMatchObject({ level: 'store', target: `module:${PLANTED}#reversedStore` });
  });

  it('overlaps calls started in consecutive steps: a store that reads its count before an await repeats an ID (seed s.1)', async () => {
    const racy = await runSimulation(planted('racyIdsStore'), storeLevelConfig('s.1'), scriptChoices(OVERLAPPING), { record: true });
    expect(racy.violation).toMatchObject({ property: 'event-ids-unique', step: 2 });
    // The control: the correct list store gives each overlapping call its own ID.
    expect((await runSimulation(planted('listStore'), storeLevelConfig('s.1'), scriptChoices(OVERLAPPING))).violation).toBeNull();
    // The liveness phase is the one final drain.
    expect(racy.trace!.at(-1)).toMatchObject({ phase: 'liveness', action: { kind: 'drain' } });
    expect(traceLines(racy.trace, 'store').at(-1)!.action).toBe('every held send returns and every call is awaited (end of run)');
  });

  it('one run going on past its violations gives what each run made again without the property violated gives (racyIdsStore, seeds s.1 to s.12, five with two violations)', async () => {
    let violations = 0;
    for (let seed = 1; seed <= 12; seed += 1) {
      const target = planted('racyIdsStore');
      const config = storeLevelConfig(`s.${seed}`);
      const walked = await runSimulation(target, config, levelWalk(config, levelOf(target)));
      const made: unknown[] = [];
      await eachViolation(null, STORE_PROPERTY_NAMES, () => true, (properties) => runSimulation(target, config, sequenceChoices(walked.choices), properties === null ? {} : { properties }), (result) => {
        made.push(result);
      });
      const every = await runSimulation(target, config, sequenceChoices(walked.choices), { everyViolation: true });
      const { later = [], ...first } = every;
      expect([first, ...later]).toEqual(made);
      violations += made.length - 1;
    }
    expect(violations).toBe(17);
  });

  it('tells onRunEnd every violation, also of the properties the run did not check (seed s.1)', async () => {
    const reports: StoreRunReport[] = [];
    const result = await runSimulation(planted('racyIdsStore', (report) => reports.push(report)), storeLevelConfig('s.1'), scriptChoices(OVERLAPPING), { properties: ['replay-exact'] });
    expect(result.violation).toBeNull();
    expect(reports.map((report) => report.violations.map((violation) => violation.property))).toEqual([['event-ids-unique']]);
    expect(reports[0]!.kinds).toHaveLength(3);
  });

  it('ends the fault phase at the first call that outlasts the call timeout (neverStore, seed s.1)', async () => {
    const reports: StoreRunReport[] = [];
    const target = storeLevelTarget(moduleSource({ path: 'check-store/fixtures/never-settling-stores.ts', exportName: 'neverStore' }), { shared: false, durable: false, onRunEnd: (report) => reports.push(report) });
    const script = ['a new session opens (incarnation 1)', 'storeEvent of a notification on A.standalone', 'await storeEvent of A.standalone#0', 'storeEvent of a notification on A.standalone'];
    const result = await runSimulation(target, storeLevelConfig('s.1', { callTimeoutMs: 20 }), scriptChoices(script));
    expect(result.steps).toBe(3);
    expect(result.violation?.property).toBe('calls-settle');
    expect(reports[0]!.timeoutsWaited).toBe(1);
  });
});
