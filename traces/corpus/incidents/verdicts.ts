// Re-derives the verdict lines (`# on TARGET: every | own`) of every incident file by running it on every built-in
// target, and prints each change as old → new: `npx tsx traces/corpus/incidents/verdicts.ts`. Run it on purpose,
// when a target, an action or a property changed, and read what it prints: the incidents test fails while a file's
// verdicts and the runs differ. A target whose package is not installed keeps its written line (said on stderr).

import { writeFileAtomically } from '../../store.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { INCIDENTS_DIRECTORY, INCIDENT_TARGETS, incidentVerdict, loadIncidentTarget, readIncidents } from './incidents.ts';

const VERDICT_LINE = /^# on ([\w:.+/-]+): (.+)$/;

for (const incident of readIncidents()) {
  const path = join(INCIDENTS_DIRECTORY, incident.file);
  const lines = readFileSync(path, 'utf8').split('\n');
  const first = lines.findIndex((line) => VERDICT_LINE.test(line));
  if (first < 0) {
    process.stderr.write(`${incident.file}: no "# on TARGET: ..." lines to rewrite\n`);
    process.exitCode = 2;
    continue;
  }
  let end = first;
  while (end < lines.length && VERDICT_LINE.test(lines[end]!)) end += 1;
  const written: string[] = [];
  for (const entry of INCIDENT_TARGETS) {
    const old = incident.verdicts.get(entry.name)?.join(' | ');
    const loaded = await loadIncidentTarget(entry);
    if ('missing' in loaded) {
      process.stderr.write(`${incident.file} on ${entry.name}: not run (${loaded.missing} is not installed); the written verdict is kept\n`);
      if (old !== undefined) written.push(`# on ${entry.name}: ${old}`);
      continue;
    }
    const now = `${await incidentVerdict(loaded.target, incident.actions, null)} | ${await incidentVerdict(loaded.target, incident.actions, incident.properties)}`;
    if (now !== old) process.stdout.write(`${incident.file} on ${entry.name}: ${old ?? '(none)'} → ${now}\n`);
    written.push(`# on ${entry.name}: ${now}`);
  }
  const next = [...lines.slice(0, first), ...written, ...lines.slice(end)].join('\n');
  writeFileAtomically(path, next);
}
