// `resumecheck properties`: the properties the simulator checks, with their kinds and sources.

import { PROPERTIES } from '../properties/index.ts';
import { sharedWallMs } from '../sim/clock.ts';
import type { Io, ParsedArgs } from './command-spec.ts';
import { jsonEnvelope } from './json-envelope.ts';

/** Runs `resumecheck properties`. */
export function runProperties({ values }: ParsedArgs, io: Io): number {
  const startedMs = sharedWallMs();
  const rows = PROPERTIES.map(({ name, statement, source, kind }) => ({ name, kind, statement, source }));
  if (values.json === true) io.out(JSON.stringify(jsonEnvelope('properties', {}, sharedWallMs() - startedMs, { properties: rows }), null, 2));
  else for (const row of rows) io.out(`${row.name.padEnd(26)} ${row.kind.padEnd(8)} ${row.statement}\n${' '.repeat(36)}source: ${row.source}`);
  return 0;
}
