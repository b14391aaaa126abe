// The seeds' incidents kept as scenario files: reading one (its actions, its own properties, its verdict per target and
// the target the README shows it on), running it, and the README's Mermaid section built from them.

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type PropertyName, isPropertyName } from '../../../properties/names.ts';
import { resolveConfig } from '../../../sim/config.ts';
import { runSimulation } from '../../../sim/engine.ts';
import { recordTrace } from '../../../sim/search/fuzz.ts';
import { ScriptError, parseScript, scriptChoices } from '../../../sim/shrink/script.ts';
import { missingPackageOf } from '../../../targets/resolve-target.ts';
import { CLIENT_TARGET_INFOS } from '../../../targets/clients/infos.ts';
import { TARGET_ENTRIES, type TargetEntry, targetEntry } from '../../../targets/registry.ts';
import type { Target } from '../../../targets/target.ts';
import { renderMermaid } from '../../render/mermaid.ts';
import { readableFromTrace } from '../../render/readable.ts';
import type { Trace } from '../../trace.ts';

/** The folder of the incident files. */
export const INCIDENTS_DIRECTORY = fileURLToPath(new URL('.', import.meta.url));
/** The seed the verdicts were taken with (the script command's default). */
export const INCIDENT_SEED = '1';

/** An incident file, read. */
export interface Incident {
  readonly file: string;
  /** The first paragraph of its header: what happened, in the seed's words. */
  readonly summary: string;
  readonly actions: readonly string[];
  readonly properties: readonly PropertyName[];
  /** Target name → [verdict with every property checked, verdict with only the incident's properties checked]. */
  readonly verdicts: ReadonlyMap<string, readonly [string, string]>;
  /** The target the README shows it on. */
  readonly shownOn: string;
}

/** Reads an incident file's text; a header line out of form is an error in the corpus (it throws). */
export function readIncident(file: string, text: string): Incident {
  const properties = (/^# the incident's properties: (.+)$/m.exec(text)?.[1] ?? '').split(',').map((name) => name.trim());
  if (!properties.every(isPropertyName)) throw new Error(`${file}: the incident's properties must be known properties, got ${properties.join(', ')}`);
  const verdicts = new Map<string, readonly [string, string]>();
  for (const match of text.matchAll(/^# on ([\w:.+/-]+): (.+?) \| (.+)$/gm)) {
    if (verdicts.has(match[1]!)) throw new Error(`${file}: two verdicts for ${match[1]}`);
    verdicts.set(match[1]!, [match[2]!, match[3]!]);
  }
  const shownOn = /^# shown in the README as it runs on: (\S+)$/m.exec(text)?.[1];
  if (shownOn === undefined) throw new Error(`${file}: no "# shown in the README as it runs on: TARGET" line`);
  const header = text.split('\n').filter((line) => line.startsWith('#'));
  const end = header.findIndex((line) => line.trim() === '#');
  const summary = (end < 0 ? header : header.slice(0, end)).map((line) => line.replace(/^#\s?/, '')).join(' ');
  return { file, summary, actions: parseScript(text), properties: properties as PropertyName[], verdicts, shownOn };
}

/** Every incident file, sorted by name. */
export function readIncidents(): Incident[] {
  return readdirSync(INCIDENTS_DIRECTORY)
    .filter((name) => name.endsWith('.txt'))
    .sort()
    .map((file) => readIncident(file, readFileSync(join(INCIDENTS_DIRECTORY, file), 'utf8')));
}

/**
 * Every built-in server target's entry, the 2.x SDK targets included: each incident gives a verdict for each. The client
 * targets are left out: an incident is a server-level scenario (the clients are simulated), and a client target is
 * judged at the client level, with other actions.
 */
const CLIENT_TARGET_NAMES = new Set<string>(Object.values(CLIENT_TARGET_INFOS).map((info) => info.name));
export const INCIDENT_TARGETS: readonly TargetEntry[] = TARGET_ENTRIES.filter((entry) => !CLIENT_TARGET_NAMES.has(entry.name));

/**
 * A built-in target loaded, or the npm package it needs and that is not installed (the 2.x SDK targets need the
 * optional peer @modelcontextprotocol/server): a missing package is the setup's, not the incident's, so no throw.
 */
export async function loadIncidentTarget(entry: TargetEntry): Promise<{ readonly target: Target } | { readonly missing: string }> {
  try {
    return { target: await entry.load() };
  } catch (error) {
    const missing = missingPackageOf(error);
    if (missing === null) throw error;
    return { missing };
  }
}

/** What a scenario does on a target, as the incident files write it: `holds`, `P at step N`, `P in the liveness phase`. */
export async function incidentVerdict(target: Target, actions: readonly string[], properties: readonly PropertyName[] | null): Promise<string> {
  try {
    const result = await runSimulation(target, resolveConfig({ seed: INCIDENT_SEED }), scriptChoices(actions), properties === null ? {} : { properties });
    if (result.violation === null) return 'holds';
    const where = result.violation.step < result.choices.length ? `at step ${result.violation.step + 1}` : 'in the liveness phase';
    return `${result.violation.property} ${where}`;
  } catch (error) {
    if (error instanceof ScriptError) return `does not apply (${/^step \d+/.exec(error.message)?.[0] ?? 'a step'} is not enabled)`;
    throw error;
  }
}

/** The recorded trace of an incident on the target the README shows it on, checking only the incident's properties. */
export async function incidentTrace(incident: Incident): Promise<Trace> {
  const entry = targetEntry(incident.shownOn);
  if (entry === undefined) throw new Error(`${incident.file}: no target named ${incident.shownOn}`);
  const target = await entry.load();
  const config = resolveConfig({ seed: INCIDENT_SEED });
  const result = await runSimulation(target, config, scriptChoices(incident.actions), { properties: incident.properties });
  return recordTrace(target, config, result.choices, null, incident.properties);
}

/** The README's section of incident diagrams (Markdown, between its markers), as the incidents render now. */
export async function incidentsMarkdown(): Promise<string> {
  const parts: string[] = [];
  for (const incident of readIncidents()) {
    const trace = await incidentTrace(incident);
    parts.push(`### \`${incident.file}\` on \`${incident.shownOn}\``);
    parts.push('');
    parts.push(incident.summary);
    parts.push('');
    parts.push('```mermaid');
    parts.push(renderMermaid(readableFromTrace(trace, `traces/corpus/incidents/${incident.file}`)).trimEnd());
    parts.push('```');
    parts.push('');
  }
  return parts.join('\n');
}
