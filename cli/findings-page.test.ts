// The findings pages of the SDK lines (docs/findings/mcp-typescript-sdk-VERSION.md) say only what their data says, and
// their data only what the code finds now: the page is the rendering of its data, no cell of its summary contradicts
// the matrix rows, every trace it names is in the corpus (and the corpus holds no trace of the line's targets the data
// lacks), every violated cell still violates its property on its target and is charged to the same component, and a
// short matrix of the same seed finds exactly the cells the data found in those runs. Fast: no cell is searched
// further than SHORT_RUNS runs, nothing is shrunk.

import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PROPERTIES } from '../properties/index.ts';
import type { PropertyName } from '../properties/names.ts';
import { attributeFinding } from '../sim/shrink/attribution.ts';
import { sequenceChoices } from '../sim/choices.ts';
import { DEFAULT_REVISION, resolveConfig } from '../sim/config.ts';
import { runSimulation } from '../sim/engine.ts';
import { createControl, runSeed } from '../sim/search/fuzz-search.ts';
import { searchRow } from '../sim/search/matrix-search.ts';
import { targetEntry } from '../targets/registry.ts';
import { readTrace } from '../traces/store.ts';
import {
  CORPUS_DIR,
  type FindingsData,
  SDK_LINES,
  type SdkLineName,
  contradictions,
  corpusTraces,
  dataFileName,
  lineTargets,
  namedTraces,
  pageFileName,
  pageFindings,
  renderFindingsPage,
} from './findings-page.ts';
import { runInProcess } from './run-in-process.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FINDINGS = join(ROOT, 'docs', 'findings');
/** Runs of the short matrix that checks the data's early cells against the code (a cell found later is replayed instead). */
const SHORT_RUNS = 25;

/** A line's page and data as kept, for the SDK installed now. */
async function kept(line: SdkLineName): Promise<{ readonly page: string; readonly data: FindingsData; readonly pagePath: string }> {
  const sdk = (await lineTargets(line))[0]!.sdk!;
  const pagePath = join(FINDINGS, pageFileName(sdk));
  const data = JSON.parse(readFileSync(join(FINDINGS, dataFileName(sdk)), 'utf8')) as FindingsData;
  return { page: readFileSync(pagePath, 'utf8'), data, pagePath };
}

const LINES = Object.keys(SDK_LINES) as SdkLineName[];

describe.each(LINES)('the findings page of SDK line %s', (line) => {
  it('is the rendering of its data, made by the command it names, for the SDK installed now', async () => {
    const { page, data } = await kept(line);
    expect(data.format).toBe('resumecheck-findings');
    expect(page).toBe(renderFindingsPage(data));
    expect(page).toContain(`This page is made by \`${data.command}\``);
    const targets = await lineTargets(line);
    expect(data.targets.map((target) => target.name)).toEqual(targets.map((target) => target.name));
    for (const target of targets) expect(data.targets.find((entry) => entry.name === target.name)).toMatchObject({ sdk: target.sdk, components: target.components });
  });

  it('has a row for every property a client of the default revision is judged by (a property added since is not left out)', async () => {
    const { data } = await kept(line);
    // A property judged only on a fault the default runs do not offer (unsupported-version-400) has no row: the page is the matrix's.
    const judged = PROPERTIES.filter((property) => property.revisions.includes(DEFAULT_REVISION) && property.onlyWith === undefined).map((property) => property.name);
    expect(judged.filter((name) => !data.properties.includes(name))).toEqual([]);
  });

  it('says of every cell what the matrix rows say, in the current severity words only', async () => {
    const { page, data } = await kept(line);
    expect(contradictions(page, data.rows, data.properties)).toEqual([]);
    // The old words are gone: a severity is failure, warning, advice or note.
    expect(page).not.toMatch(/\| (MUST|SHOULD|seed advice) \|/);
  });

  it('names only corpus traces that exist, and every corpus trace of its targets, with the verdict each records', async () => {
    const { page, data } = await kept(line);
    for (const file of namedTraces(page)) expect(existsSync(join(ROOT, file)), file).toBe(true);
    const names = new Set(data.targets.map((target) => target.name));
    const corpus = readdirSync(join(ROOT, CORPUS_DIR)).filter((file) => file.endsWith('.json')).sort();
    const ofLine = corpus.map((file) => ({ file: `${CORPUS_DIR}/${file}`, trace: readTrace(join(ROOT, CORPUS_DIR, file)) })).filter(({ trace }) => names.has(trace.target));
    expect(data.traces.map((trace) => [trace.file, trace.target, trace.property])).toEqual(ofLine.map(({ file, trace }) => [file, trace.target, trace.verdict?.property ?? null]));
    expect(namedTraces(page).sort()).toEqual(data.traces.map((trace) => trace.file).sort());
  });

  it('charges every corpus trace as replaying it charges it now', async () => {
    const { data } = await kept(line);
    expect(await corpusTraces(ROOT, await lineTargets(line))).toEqual(data.traces);
  });

  it('every violated cell still violates its property on its target, charged to the same component', async () => {
    const { data } = await kept(line);
    const base = resolveConfig({ seed: data.seed });
    for (const finding of pageFindings(data)) {
      const target = (await targetEntry(finding.target)!.load())!;
      const config = { ...base, seed: runSeed(data.seed, finding.cell.run) };
      const result = await runSimulation(target, config, sequenceChoices(finding.cell.choices), { properties: [finding.property] });
      expect(result.violation?.property, `${finding.target} × ${finding.property}`).toBe(finding.property);
      const attribution = await attributeFinding(target, { config, choices: finding.cell.choices, verdict: result.violation! });
      expect(attribution?.charged, `${finding.target} × ${finding.property}`).toEqual(finding.cell.component?.charged);
    }
  });

  it(`a matrix of the first ${SHORT_RUNS} runs of the same seed finds exactly the cells the data found by then`, async () => {
    const { data } = await kept(line);
    const config = resolveConfig({ seed: data.seed });
    for (const row of data.rows) {
      const target = (await targetEntry(row.target)!.load())!;
      const properties = data.properties.filter((property) => row.cells[property]?.verdict !== 'n/a');
      const search = await searchRow(target, { row: row.target, config, runsMax: SHORT_RUNS, properties }, createControl({ shared: false }));
      for (const cell of search.cells) {
        const recorded = row.cells[cell.property as PropertyName]!;
        const early = recorded.verdict === 'violated' && recorded.run <= SHORT_RUNS ? recorded.run : null;
        expect(cell.candidate?.run ?? null, `${row.target} × ${cell.property}`).toBe(early);
      }
    }
  });
});

describe('the checks above can fail', () => {
  it('a page whose summary says a violated cell holds, or a held cell is violated, contradicts the matrix', async () => {
    const { page, data } = await kept('1');
    const finding = pageFindings(data)[0]!;
    const rows = data.rows.map((row) => (row.target !== finding.target ? row : { ...row, cells: { ...row.cells, [finding.property]: { verdict: 'not-found' as const, runs: data.runsPerCell, steps: 1 } } }));
    expect(contradictions(page, rows, data.properties)).toEqual([`${finding.target} × ${finding.property}: the page says violated, the matrix not-found`]);
    // A page edited by hand to say a property holds where the data says it is violated.
    const edited = page.replace(/^(\| [a-z-]+ \| )[^|]*\(\d+ steps, run \d+\)/m, '$1not found in 2000 runs (1 steps)');
    expect(edited).not.toBe(page);
    expect(contradictions(edited, data.rows, data.properties)).toHaveLength(1);
    expect(edited).not.toBe(renderFindingsPage(data));
  });

  it('a page naming a trace that was renamed names one that does not exist', async () => {
    const { page } = await kept('1');
    const renamed = page.replace('sdk-core--holds--reexecution-no-redelivery.json', 'sdk-core--no-redelivery.json');
    expect(namedTraces(renamed).filter((file) => !existsSync(join(ROOT, file)))).toEqual(['traces/corpus/sdk-core--no-redelivery.json']);
  });
});

describe('findings-page on the command line', () => {
  it('--from renders the kept data again, byte for byte, into --out', async () => {
    const out = mkdtempSync(join(tmpdir(), 'resumecheck-findings-'));
    try {
      const { page, data } = await kept('1');
      const result = await runInProcess(['findings-page', '--from', join(FINDINGS, dataFileName(data.sdk)), '--out', out]);
      expect(result.code).toBe(0);
      expect(readFileSync(join(out, pageFileName(data.sdk)), 'utf8')).toBe(page);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it.each([
    ['no --line', ['findings-page'], /--line takes 1 or 2/],
    ['an unknown line', ['findings-page', '--line', '3'], /--line takes 1 or 2/],
    ['--from with --runs', ['findings-page', '--from', 'x.json', '--runs', '5'], /--runs goes with making it anew/],
    ['--from a file that is not there', ['findings-page', '--from', 'no-such-data.json'], /cannot be read as JSON/],
  ])('bad input (%s): exit 2, one line, nothing written', async (_what, args, message) => {
    const result = await runInProcess(args);
    expect(result.code).toBe(2);
    expect(result.out).toEqual([]);
    expect(result.err).toHaveLength(1);
    expect(result.err[0]).toMatch(message);
  });
});
