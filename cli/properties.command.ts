// `resumecheck properties`: the properties the simulator checks, with their kinds, severities, the protocol revisions
// they apply to and their sources: the server level's, then the client level's.

import { CLIENT_PROPERTIES } from '../properties/clients/index.ts';
import { PROPERTIES } from '../properties/index.ts';
import { sharedWallMs } from '../sim/clock.ts';
import type { Io, ParsedArgs } from './command-spec.ts';
import { jsonEnvelope } from './json-envelope.ts';

/** Runs `resumecheck properties`. */
export function runProperties({ values }: ParsedArgs, io: Io): number {
  const startedMs = sharedWallMs();
  const rows = PROPERTIES.map(({ name, statement, source, kind, severity, revisions }) => ({ name, kind, statement, source, level: 'server', severity, revisions: [...revisions] }));
  const clientRows = CLIENT_PROPERTIES.map(({ name, statement, source, kind, severity, revisions }) => ({ name, kind, statement, source, level: 'client', severity, revisions: [...revisions] }));
  if (values.json === true) io.out(JSON.stringify(jsonEnvelope('properties', {}, sharedWallMs() - startedMs, { properties: [...rows, ...clientRows] }), null, 2));
  else {
    for (const row of rows) io.out(`${row.name.padEnd(26)} ${row.kind.padEnd(8)} ${row.statement}\n${' '.repeat(36)}${row.severity}, revisions ${row.revisions.join(', ')}; source: ${row.source}`);
    for (const row of clientRows) {
      io.out(`${row.name.padEnd(26)} ${row.kind.padEnd(8)} ${row.statement}\n${' '.repeat(36)}client targets; ${row.severity}, revisions ${row.revisions.join(', ')}; source: ${row.source}`);
    }
  }
  return 0;
}
