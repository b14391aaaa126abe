// `resumecheck targets`: the built-in targets, from the lazy registry (no SDK is loaded to list them).

import { TARGET_ENTRIES } from '../targets/registry.ts';
import { sharedWallMs } from '../sim/clock.ts';
import type { Io, ParsedArgs } from './command-spec.ts';
import { jsonEnvelope } from './json-envelope.ts';

/** Runs `resumecheck targets`. */
export function runTargets({ values }: ParsedArgs, io: Io): number {
  const startedMs = sharedWallMs();
  const rows = TARGET_ENTRIES.map(({ name, kind, description, breaks }) => ({ name, kind, description, breaks: [...breaks] }));
  if (values.json === true) io.out(JSON.stringify(jsonEnvelope('targets', {}, sharedWallMs() - startedMs, { targets: rows }), null, 2));
  else for (const row of rows) io.out(`${row.name.padEnd(24)} ${row.kind.padEnd(9)} ${row.description}${row.breaks.length > 0 ? `\n${' '.repeat(35)}breaks: ${row.breaks.join(', ')}` : ''}`);
  return 0;
}
