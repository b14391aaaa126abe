// The one severity vocabulary of resumecheck: how strongly a finding's source requires what it checks, whether it
// fails a run at a given strictness, and the short label every output (text, HTML, JUnit, summary, matrix,
// check-store) prints for it.

/**
 * How strongly a property's source requires it, read from the keyword of the sentence it cites:
 * - `failure`: MUST, MUST NOT or REQUIRED in the specification (fails a run by default);
 * - `warning`: SHOULD or SHOULD NOT in the specification (fails with `--strict`, that is `--strict=warning`);
 * - `advice`: MAY in the specification, a seed's advice, or resumecheck's own design rule (fails with
 *   `--strict=advice`);
 * - `note`: the revision permits what it reports (a re-issued 2026-07-28 call running twice): reported, and it
 *   never fails anything at any strictness.
 */
export type Severity = 'failure' | 'warning' | 'advice' | 'note';

/** Every severity, strongest first. */
export const SEVERITIES: readonly Severity[] = ['failure', 'warning', 'advice', 'note'];

/**
 * The weakest severity that still fails a run: `failure` by default, `warning` with `--strict` (or
 * `--strict=warning`), `advice` with `--strict=advice`. Nothing makes a note fail.
 */
export type Strictness = 'failure' | 'warning' | 'advice';

/** Every strictness, from the default to the strictest. */
export const STRICTNESSES: readonly Strictness[] = ['failure', 'warning', 'advice'];

/** The strictness of a command given no `--strict`. */
export const DEFAULT_STRICTNESS: Strictness = 'failure';

const RANK: Readonly<Record<Severity, number>> = { failure: 0, warning: 1, advice: 2, note: 3 };

/** True when a finding of `severity` fails a run (its exit code, its JUnit case) at `strictness`. */
export function failsAt(severity: Severity, strictness: Strictness): boolean {
  return severity !== 'note' && RANK[severity] <= RANK[strictness];
}

/** The short label of each severity, the same in text, HTML, JUnit, the summary, the matrix and check-store. */
export const SEVERITY_LABELS: Readonly<Record<Severity, string>> = {
  failure: '✗ failure',
  warning: '⚠ warning',
  advice: '· advice',
  note: 'ⓘ note',
};

/** The mark alone (the label's first character), for tables with no room for the word. */
export function severityMark(severity: Severity): string {
  return SEVERITY_LABELS[severity].slice(0, 1);
}

/**
 * What a finding that does not fail at `strictness` says of itself, e.g. `advice: fails only with --strict=advice`;
 * null when it fails.
 */
export function notFailingReason(severity: Severity, strictness: Strictness): string | null {
  if (failsAt(severity, strictness)) return null;
  if (severity === 'note') return 'note: permitted by its revision, fails nothing';
  return `${severity}: fails only with ${strictFlag(severity)}`;
}

/** The flag that makes findings of `severity` fail (`--strict` for warnings, `--strict=advice` for advice). */
export function strictFlag(severity: Exclude<Severity, 'note'>): string {
  if (severity === 'failure') return '(always)';
  return severity === 'warning' ? '--strict' : '--strict=advice';
}

/** True when `value` is a severity. */
export function isSeverity(value: string): value is Severity {
  return (SEVERITIES as readonly string[]).includes(value);
}
