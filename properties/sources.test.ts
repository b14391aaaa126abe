// Every property's severity is the keyword of the sentence it cites: MUST, MUST NOT or REQUIRED for a failure,
// SHOULD or SHOULD NOT for a warning; a seed passage (verbatim in ../shared/seeds/ when that folder is there) or a
// design rule for advice. A note may cite any sentence: it reports what the revision permits.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REQUEST_ID_NOT_IN_FLIGHT, REQUEST_ID_ONCE_PER_SESSION } from './client-fault.ts';
import { CLIENT_PROPERTIES } from './clients/index.ts';
import { PROPERTIES } from './index.ts';
import { SEVERITIES, type Severity } from './severity.ts';
import { type Source, type SpecKeyword, keywordSeverity, renderSource } from './source.ts';

/**
 * The seeds beside the repository (CI checks them out there), or where RESUMECHECK_SEEDS says (a worktree elsewhere);
 * absent, seed passages are checked for shape only.
 */
const SEEDS = process.env['RESUMECHECK_SEEDS'] ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'shared', 'seeds');

/** Text as compared: Markdown emphasis and code marks dropped, runs of white space made one space. */
function plain(text: string): string {
  return text.replace(/[*`]/g, '').replace(/\s+/g, ' ').trim();
}

/** True when `keyword` stands in `quote` as itself (MUST not counted inside MUST NOT, nor SHOULD inside SHOULD NOT). */
function hasKeyword(quote: string, keyword: SpecKeyword): boolean {
  const pattern = keyword === 'MUST' || keyword === 'SHOULD' ? new RegExp(`\\b${keyword}\\b(?! NOT)`) : new RegExp(`\\b${keyword}\\b`);
  return pattern.test(quote);
}

/** Why a property's severity disagrees with its source, or null when they agree. */
function disagreement(property: { readonly severity: Severity; readonly source: Source }, seedText: (file: string) => string | null): string | null {
  const { severity, source } = property;
  if (!SEVERITIES.includes(severity)) return `severity ${String(severity)} is none of ${SEVERITIES.join(', ')}`;
  switch (source.kind) {
    case 'spec': {
      if (!hasKeyword(source.quote, source.keyword)) return `its keyword ${source.keyword} is not in the sentence it quotes: "${source.quote}"`;
      if (source.revisions.length === 0 || source.page === '' || source.section === '') return 'a specification source names its revisions, page and section';
      if (severity === 'note') return null;
      const expected = keywordSeverity(source.keyword);
      return expected === severity ? null : `it is a ${severity}, but its sentence's ${source.keyword} makes it a ${expected}`;
    }
    case 'seed': {
      if (severity !== 'advice' && severity !== 'note') return `it is a ${severity}, but a seed's passage is advice`;
      const text = seedText(source.file);
      if (text !== null && !plain(text).includes(plain(source.quote))) return `seed ${source.file} does not say "${source.quote}"`;
      return null;
    }
    case 'design':
      if (severity !== 'advice' && severity !== 'note') return `it is a ${severity}, but resumecheck's own design rule is advice`;
      return source.rule.trim() === '' || source.reason.trim() === '' ? 'a design rule names the rule and its reason' : null;
  }
}

function seedFromDisk(file: string): string | null {
  const path = join(SEEDS, file);
  return existsSync(path) ? readFileSync(path, 'utf8') : null;
}

const ALL = [...PROPERTIES, ...CLIENT_PROPERTIES];

describe("every property's severity is its source's word", () => {
  it.each(ALL.map((property) => [property.name, property] as const))('%s', (_name, property) => {
    expect(disagreement(property, seedFromDisk)).toBeNull();
  });

  it('the seeds are read when they are beside the repository', () => {
    // On a machine with the seeds (CI, the project's own), a passage that is not in its seed is caught.
    if (!existsSync(SEEDS)) return;
    const invented = { severity: 'advice' as const, source: { kind: 'seed' as const, file: '004_98a48cad619d3588.txt' as const, quote: 'never skip silently' } };
    expect(disagreement(invented, seedFromDisk)).toMatch(/does not say/);
  });

  it('a property edited to disagree with its sentence is caught', () => {
    const status = PROPERTIES.find((property) => property.name === 'status-codes')!;
    expect(disagreement({ ...status, severity: 'warning' }, seedFromDisk)).toMatch(/MUST makes it a failure/);
    const header = PROPERTIES.find((property) => property.name === 'missing-session-id-400')!;
    expect(disagreement({ ...header, severity: 'failure' }, seedFromDisk)).toMatch(/SHOULD makes it a warning/);
    expect(disagreement({ ...header, source: { ...header.source, keyword: 'MUST' } as Source }, seedFromDisk)).toMatch(/keyword MUST is not in the sentence/);
    const seeded = PROPERTIES.find((property) => property.source.kind === 'seed')!;
    expect(disagreement({ ...seeded, severity: 'failure' }, seedFromDisk)).toMatch(/seed's passage is advice/);
    const designed = PROPERTIES.find((property) => property.source.kind === 'design')!;
    expect(disagreement({ ...designed, severity: 'warning' }, seedFromDisk)).toMatch(/design rule is advice/);
  });

  it('the rules a client fault breaks quote their MUST NOT', () => {
    for (const rule of [REQUEST_ID_ONCE_PER_SESSION, REQUEST_ID_NOT_IN_FLIGHT]) expect(disagreement({ severity: 'failure', source: rule }, seedFromDisk)).toBeNull();
  });

  it('each source renders as one line', () => {
    for (const property of ALL) expect(renderSource(property.source)).not.toMatch(/\n/);
  });
});
