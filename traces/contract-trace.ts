// check-store's contract traces from before the store level (format `resumecheck-store-contract`, version 1), read as
// traces of the one format: the store level enumerates its operations in the same order and draws from the same
// seeds, so the same choices make the same run, and an old trace still replays, shrinks and renders.

import { STORE_PROPERTY_NAMES } from '../properties/names.ts';
import { DEFAULT_STORE_LEVEL_BOUNDS } from '../sim/config.ts';
import { moduleTargetName } from '../targets/module/module-name.ts';

/** The `format` of a contract trace. */
export const CONTRACT_TRACE_FORMAT = 'resumecheck-store-contract';

/** The bounds a contract trace's config gives, each a whole number. */
const BOUNDS = ['stepsMax', 'sessionsPerEpochMax', 'postStreamsPerSessionMax', 'eventsPerStreamMax', 'restartsMax', 'windowEventsMax'] as const;

/**
 * A contract trace's record as a record of the one format, for parseTrace to check; `fail` reports what is off (one
 * line). Its verdict's property is the trace's only one checked, as `check-store --replay` looked for it first.
 */
export function contractTraceAsTrace(record: Readonly<Record<string, unknown>>, source: string, fail: (message: string) => never): Record<string, unknown> {
  if (record['formatVersion'] !== 1) fail(`${source}: contract trace format version ${String(record['formatVersion'])}, this resumecheck reads 1`);
  const config = record['config'] as Record<string, unknown> | null;
  if (
    typeof config !== 'object' ||
    config === null ||
    typeof config['seed'] !== 'string' ||
    typeof config['shared'] !== 'boolean' ||
    !BOUNDS.every((key) => Number.isInteger(config[key])) ||
    (config['durable'] !== undefined && typeof config['durable'] !== 'boolean')
  ) {
    fail(`${source}: config must give seed, shared and the contract's bounds`);
  }
  const store = record['store'] as Record<string, unknown> | null;
  if (store !== null && (typeof store !== 'object' || typeof store['path'] !== 'string' || (store['exportName'] !== null && typeof store['exportName'] !== 'string'))) {
    fail(`${source}: store must be null or { path, exportName }`);
  }
  const verdict = record['verdict'] as Record<string, unknown> | null;
  if (typeof verdict !== 'object' || verdict === null || !(STORE_PROPERTY_NAMES as readonly unknown[]).includes(verdict['property'])) fail(`${source}: verdict must name a contract property`);
  const steps = Array.isArray(record['steps']) ? (record['steps'] as Array<Record<string, unknown>>) : [];
  const ref = store === null ? null : { path: store['path'] as string, exportName: (store['exportName'] as string | null) ?? null };
  return {
    format: 'resumecheck-trace',
    formatVersion: 1,
    resumecheckVersion: record['resumecheckVersion'],
    level: 'store',
    sdk: null,
    target: moduleTargetName(ref, { shared: config['shared'] as boolean, durable: config['durable'] === true }),
    config: {
      seed: config['seed'],
      stepsMax: config['stepsMax'],
      restartsMax: config['restartsMax'],
      store: {
        sessionsPerEpochMax: config['sessionsPerEpochMax'],
        postStreamsPerSessionMax: config['postStreamsPerSessionMax'],
        eventsPerStreamMax: config['eventsPerStreamMax'],
        windowEventsMax: config['windowEventsMax'],
        // Traces written before --call-timeout existed ran with the default.
        callTimeoutMs: config['callTimeoutMs'] ?? DEFAULT_STORE_LEVEL_BOUNDS.callTimeoutMs,
      },
    },
    properties: [verdict['property']],
    seed: config['seed'],
    choices: record['choices'],
    // The last step, the final drain (choice -1), is the store level's liveness phase.
    steps: steps.map((step) => ({ choice: step['choice'] === -1 ? 0 : step['choice'], action: step['action'], phase: step['choice'] === -1 ? 'liveness' : 'faults', notes: step['notes'] ?? [] })),
    verdict: { property: verdict['property'], step: Number(verdict['step'] ?? 0), explanation: String(verdict['explanation'] ?? '') },
    shrink: record['shrink'] ?? null,
  };
}
