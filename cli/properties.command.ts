// `resumecheck properties`: the properties the simulator checks, with their kinds, severities, the protocol revisions
// they apply to, their sources (the sentence each one's severity is read from), how a finding is charged when the
// client broke a requestor's rule first, and which are kept aside until a run is over: the server level's, then the
// client level's.

import { CLIENT_PROPERTIES } from '../properties/clients/index.ts';
import { PROPERTIES } from '../properties/index.ts';
import { SEVERITY_LABELS } from '../properties/severity.ts';
import { renderSource } from '../properties/source.ts';
import { sharedWallMs } from '../sim/clock.ts';
import type { Io, ParsedArgs } from './command-spec.ts';
import { jsonEnvelope } from './json-envelope.ts';

/** What a finding after a client's own fault means for each property, in one phrase. */
const UNDER_CLIENT_FAULT = {
  server: 'charged to the server even after a client fault',
  triggered: "after a client's in-flight request-ID reuse: triggered by it, fails nothing",
} as const;

/** Runs `resumecheck properties`. */
export function runProperties({ values }: ParsedArgs, io: Io): number {
  const startedMs = sharedWallMs();
  const rows = PROPERTIES.map(({ name, statement, source, background, kind, severity, revisions, underClientFault, needsClientFault, keptAside }) => ({
    name,
    kind,
    statement,
    source,
    ...(background === undefined ? {} : { background }),
    level: 'server',
    severity,
    revisions: [...revisions],
    underClientFault,
    needsClientFault: needsClientFault ?? null,
    keptAside: keptAside ?? null,
  }));
  const clientRows = CLIENT_PROPERTIES.map(({ name, statement, source, background, kind, severity, revisions }) => ({
    name,
    kind,
    statement,
    source,
    ...(background === undefined ? {} : { background }),
    level: 'client',
    severity,
    revisions: [...revisions],
  }));
  if (values.json === true) io.out(JSON.stringify(jsonEnvelope('properties', {}, sharedWallMs() - startedMs, { properties: [...rows, ...clientRows] }), null, 2));
  else {
    const indent = ' '.repeat(36);
    for (const row of rows) {
      io.out(`${row.name.padEnd(26)} ${row.kind.padEnd(8)} ${row.statement}`);
      io.out(`${indent}${SEVERITY_LABELS[row.severity]}, revisions ${row.revisions.join(', ')}; ${UNDER_CLIENT_FAULT[row.underClientFault]}`);
      io.out(`${indent}source: ${renderSource(row.source)}`);
      if (row.needsClientFault !== null) io.out(`${indent}needs a client fault to fire: ${row.needsClientFault}`);
      if (row.keptAside !== null) io.out(`${indent}kept aside until the run is over (the verdict only when nothing else was violated): ${row.keptAside}`);
    }
    for (const row of clientRows) {
      io.out(`${row.name.padEnd(26)} ${row.kind.padEnd(8)} ${row.statement}`);
      io.out(`${indent}client targets; ${SEVERITY_LABELS[row.severity]}, revisions ${row.revisions.join(', ')}`);
      io.out(`${indent}source: ${renderSource(row.source)}`);
    }
  }
  return 0;
}
