// The seeds' incidents as hand-written scenarios (one action a line), each with the verdict it must get on every
// target: with every property checked, and with only the incident's own properties checked (a run stops at its first
// violation, so another property can fire before the incident's own). A verdict that changes means a target or
// resumecheck changed: re-derive it on purpose, never to make the test pass.

import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type PropertyName, isPropertyName } from '../../../properties/names.ts';
import { resolveConfig } from '../../../sim/config.ts';
import { runSimulation } from '../../../sim/engine.ts';
import { ScriptError, parseScript, scriptChoices } from '../../../sim/script.ts';
import { TARGETS } from '../../../targets/index.ts';
import type { Target } from '../../../targets/target.ts';

const HERE = fileURLToPath(new URL('.', import.meta.url));
/** The seed the verdicts were taken with (the script command's default). */
const SEED = '1';

/** An incident file read: its actions, its own properties, and the verdict per target. */
interface Incident {
  readonly file: string;
  readonly actions: readonly string[];
  readonly properties: readonly PropertyName[];
  /** Target name → [verdict with every property, verdict with the incident's properties]. */
  readonly verdicts: ReadonlyMap<string, readonly [string, string]>;
}

/** Reads an incident's header: `# the incident's properties: P, Q` and `# on TARGET: VERDICT | VERDICT`. */
function readIncident(file: string, text: string): Incident {
  const properties = (/^# the incident's properties: (.+)$/m.exec(text)?.[1] ?? '').split(',').map((name) => name.trim());
  const verdicts = new Map<string, readonly [string, string]>();
  for (const match of text.matchAll(/^# on ([\w:.+/-]+): (.+?) \| (.+)$/gm)) {
    if (verdicts.has(match[1]!)) throw new Error(`${file}: two verdicts for ${match[1]}`);
    verdicts.set(match[1]!, [match[2]!, match[3]!]);
  }
  if (!properties.every(isPropertyName)) throw new Error(`${file}: the incident's properties must be known properties, got ${properties.join(', ')}`);
  return { file, actions: parseScript(text), properties: properties as PropertyName[], verdicts };
}

/** What a scenario does on a target, as the incident files write it. */
async function verdictOf(target: Target, actions: readonly string[], properties: readonly PropertyName[] | null): Promise<string> {
  try {
    const result = await runSimulation(target, resolveConfig({ seed: SEED }), scriptChoices(actions), properties === null ? {} : { properties });
    if (result.violation === null) return 'holds';
    const where = result.violation.step < result.choices.length ? `at step ${result.violation.step + 1}` : 'in the liveness phase';
    return `${result.violation.property} ${where}`;
  } catch (error) {
    if (error instanceof ScriptError) return `does not apply (${/^step \d+/.exec(error.message)?.[0] ?? 'a step'} is not enabled)`;
    throw error;
  }
}

const files = readdirSync(HERE)
  .filter((name) => name.endsWith('.txt'))
  .sort();

describe('traces/corpus/incidents: the seeds\' incidents, replayed on every target', () => {
  it('has the three incidents of seeds 000 and 004', () => {
    expect(files.filter((file) => file.startsWith('seed-000-')).length).toBe(2);
    expect(files.filter((file) => file.startsWith('seed-004-')).length).toBe(1);
  });

  for (const file of files) {
    const incident = readIncident(file, readFileSync(join(HERE, file), 'utf8'));
    it(`${file} gives a verdict for every target, and every verdict names a target`, () => {
      expect([...incident.verdicts.keys()].sort()).toEqual(TARGETS.map((target) => target.name).sort());
    });
    it(`${file}: the reference holds and at least one target shows the incident's own property`, () => {
      expect(incident.verdicts.get('reference')).toEqual(['holds', 'holds']);
      expect([...incident.verdicts.values()].some(([, own]) => incident.properties.some((property) => own.startsWith(`${property} `)))).toBe(true);
    });
    for (const target of TARGETS) {
      const expected = incident.verdicts.get(target.name);
      it(`${file} on ${target.name} (seed ${SEED}): ${expected?.join(' | ') ?? 'no verdict written'}`, async () => {
        const every = await verdictOf(target, incident.actions, null);
        const own = await verdictOf(target, incident.actions, incident.properties);
        expect(`${every} | ${own}`).toBe(expected?.join(' | '));
      });
    }
  }
});
