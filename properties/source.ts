// Where a property comes from, as data: a sentence of the MCP specification (its revisions, page, section and the
// sentence as written), a passage of a seed (its file and the passage verbatim), or one of resumecheck's own design
// rules (the rule and why). A property's severity is the keyword of the sentence it quotes (properties/severity.ts);
// properties/sources.test.ts holds every property to that.

import type { Revision } from '../sim/config.ts';
import type { Severity } from './severity.ts';

/** The seed files resumecheck is built from (in ../shared/seeds/ beside the repository). */
export const SEED_FILES = ['000_318af8320b77c7d3.txt', '001_27519284b649987b.txt', '004_98a48cad619d3588.txt'] as const;

/** A seed file's name. */
export type SeedFile = (typeof SEED_FILES)[number];

/** A sentence of the MCP specification, quoted exactly as the revision's page has it (without its Markdown marks). */
export interface SpecSource {
  readonly kind: 'spec';
  /** The revisions whose page says it in these words. */
  readonly revisions: readonly Revision[];
  /** The page, e.g. `basic/transports`. */
  readonly page: string;
  /** The section of the page, e.g. `Session Management`. */
  readonly section: string;
  /** The sentence, verbatim. */
  readonly quote: string;
  /** The keyword of the sentence the property rests on (a sentence may hold two); it gives the severity. */
  readonly keyword: SpecKeyword;
}

/** The requirement keywords of the specification (RFC 2119, as MCP writes them). */
export type SpecKeyword = 'MUST' | 'MUST NOT' | 'REQUIRED' | 'SHOULD' | 'SHOULD NOT' | 'MAY';

/** The severity a keyword gives: MUST, MUST NOT, REQUIRED → failure; SHOULD, SHOULD NOT → warning; MAY → advice. */
export function keywordSeverity(keyword: SpecKeyword): Exclude<Severity, 'note'> {
  if (keyword === 'MUST' || keyword === 'MUST NOT' || keyword === 'REQUIRED') return 'failure';
  return keyword === 'MAY' ? 'advice' : 'warning';
}

/** A passage of a seed, quoted verbatim (checked against the file when it is there). */
export interface SeedSource {
  readonly kind: 'seed';
  readonly file: SeedFile;
  readonly quote: string;
}

/** A rule resumecheck sets itself, with the reason: advice, never louder. */
export interface DesignSource {
  readonly kind: 'design';
  readonly rule: string;
  readonly reason: string;
}

/** One source of a property. */
export type Source = SpecSource | SeedSource | DesignSource;

/** The seed's number, as people cite it (`000`, `004`). */
function seedNumber(file: SeedFile): string {
  return file.slice(0, 3);
}

/** One line for `resumecheck properties`: whose words, where, and the words. */
export function renderSource(source: Source): string {
  switch (source.kind) {
    case 'spec':
      return `MCP ${source.revisions.join(', ')} ${source.page} (${source.section}), ${source.keyword}: "${source.quote}"`;
    case 'seed':
      return `seed ${seedNumber(source.file)} (${source.file}): "${source.quote}"`;
    case 'design':
      return `resumecheck's own design rule: ${source.rule} (${source.reason})`;
  }
}

/**
 * The legacy transports' rule on replay across streams (2025-03-26 to 2025-11-25, Resumability and Redelivery): the
 * source of every property that judges a message delivered on a stream other than its own (another stream, another
 * session's, another incarnation's).
 */
export const NO_REPLAY_ACROSS_STREAMS: SpecSource = {
  kind: 'spec',
  revisions: ['2025-03-26', '2025-06-18', '2025-11-25'],
  page: 'basic/transports',
  section: 'Resumability and Redelivery',
  quote: 'The server MUST NOT replay messages that would have been delivered on a different stream.',
  keyword: 'MUST NOT',
};

/**
 * The 2026-07-28 cancellation sentence (basic/transports/streamable-http, Cancellation). It holds two keywords: a
 * property citing it names the one it rests on (`{ ...MODERN_CANCELLATION, keyword }`).
 */
export const MODERN_CANCELLATION: Omit<SpecSource, 'keyword'> = {
  kind: 'spec',
  revisions: ['2026-07-28'],
  page: 'basic/transports/streamable-http',
  section: 'Cancellation',
  quote: 'The server SHOULD stop work on the cancelled request as soon as practical and MUST NOT send any further messages for it.',
};

/** The 2026-07-28 backward-compatibility sentence on what a server of that revision only answers older clients. */
export const MODERN_ONLY_BACKWARD_COMPATIBILITY: SpecSource = {
  kind: 'spec',
  revisions: ['2026-07-28'],
  page: 'basic/transports/streamable-http',
  section: 'Backward Compatibility (Earlier Streamable HTTP Revisions)',
  quote: 'A server that supports only this revision and receives such traffic from an older client SHOULD respond as follows:',
  keyword: 'SHOULD',
};

/**
 * The 2026-07-28 rule on what a request's response stream carries (basic/transports/streamable-http, Receiving
 * Messages): only what relates to that request. A MUST, where 2025-11-25's sentence on the same was a SHOULD.
 */
export const MODERN_RELATED_MESSAGES: SpecSource = {
  kind: 'spec',
  revisions: ['2026-07-28'],
  page: 'basic/transports/streamable-http',
  section: 'Receiving Messages',
  quote: 'These notifications MUST relate to the originating client request.',
  keyword: 'MUST',
};
