// A change made for speed must not change what is found: every planted target's fuzz (seed 1, 2 000 runs, every
// property) and the main job's on sdk-shared (500 runs) find the same properties in the same runs and shrink them to
// the same choices, and every stored SDK
// counterexample of traces/corpus/ shrinks again to the same choices, as bench/findings.expected.json records
// (rewritten by `npx tsx bench/findings.ts --write` when several counterexamples per property, each shrunk keeping
// its signature, moved them on purpose; a change meant to move them rewrites it with that command and says why).

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PLANTED_TARGETS } from '../targets/planted/index.ts';
import { EXPECTED_PATH, type Findings, SDK_JOB, corpusFiles, corpusMinimum, plantedFindings, sdkJobFindings } from './findings.ts';
import { plantedTable } from './current-results.ts';

const expected = JSON.parse(readFileSync(EXPECTED_PATH, 'utf8')) as Findings;

describe('the same findings and minima as recorded (bench/findings.expected.json)', () => {
  it('every planted target is recorded, and only those', () => {
    expect(Object.keys(expected.planted)).toEqual(PLANTED_TARGETS.map((target) => target.name));
  });

  it("the README's table of the planted targets is this document's (bench/current-results.ts writes it)", () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    expect(readme).toContain(plantedTable(expected).join('\n'));
  });

  it('every stored SDK counterexample is recorded, and only those', () => {
    expect(expected.corpus.map((minimum) => minimum.file)).toEqual(corpusFiles());
  });

  it('each planted target: the same properties, found in the same runs, shrunk to the same choices', async () => {
    for (const target of PLANTED_TARGETS) {
      expect(await plantedFindings(target), target.name).toEqual(expected.planted[target.name]);
    }
  });

  it(`the main job on ${SDK_JOB.target}, ${SDK_JOB.runs} runs: the same properties, found in the same runs, shrunk to the same choices`, async () => {
    expect(await sdkJobFindings()).toEqual(expected.sdkJob);
  });

  it('each stored SDK counterexample: shrunk again to the same choices, still violating its property', async () => {
    for (const minimum of expected.corpus) {
      const again = await corpusMinimum(minimum.file);
      expect(again, minimum.file).toEqual(minimum);
      expect(again.shrunkProperty, minimum.file).toBe(minimum.property);
    }
  });
});
