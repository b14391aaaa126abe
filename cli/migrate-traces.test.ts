// migrate-traces: a version-1 trace (steps as printed lines) is rewritten as version 2 (steps as records) by replaying
// it, and only when the replay reads exactly as the lines; a trace whose target would run what it names is left alone.

import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { stepLines } from '../sim/levels/vocabulary.ts';
import { parseTrace } from '../traces/trace.ts';
import { runInProcess as run } from './run-in-process.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CORPUS_TRACE = join(ROOT, 'traces/corpus/sdk-shared--no-cross-session-delivery.json');
const scratch = mkdtempSync(join(tmpdir(), 'resumecheck-migrate-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The same trace as version 1 wrote it: each step its action and notes as printed lines. */
function asVersion1(text: string, edit: (lines: { action: string; notes: string[] }[]) => void = () => {}): string {
  const trace = parseTrace(text, 'corpus');
  const data = JSON.parse(text) as Record<string, unknown>;
  const steps = trace.steps.map((step) => {
    const lines = stepLines(step, trace.level);
    return { choice: step.choice, action: lines.action, phase: step.phase, notes: [...lines.notes] };
  });
  edit(steps);
  return `${JSON.stringify({ ...data, formatVersion: 1, steps }, null, 2)}\n`;
}

describe('migrate-traces', () => {
  const current = readFileSync(CORPUS_TRACE, 'utf8');

  it('rewrites a version-1 trace as the version-2 trace its replay records, step records and all', async () => {
    const file = join(scratch, 'old.json');
    writeFileSync(file, asVersion1(current));
    const before = await run(['render', file]);
    const result = await run(['migrate-traces', file]);
    expect(result.code).toBe(0);
    expect(result.out).toEqual([`rewrote ${file}`, '1 rewritten, 0 already version 2, 0 kept for their targets, 0 kept because their replay reads otherwise']);
    const rewritten = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(rewritten['formatVersion']).toBe(2);
    expect(rewritten['steps']).toEqual((JSON.parse(current) as Record<string, unknown>)['steps']);
    // What it shows as text is what it showed before, line for line.
    expect((await run(['render', file])).out).toEqual(before.out);
    expect((await run(['migrate-traces', file])).out.at(-1)).toBe('0 rewritten, 1 already version 2, 0 kept for their targets, 0 kept because their replay reads otherwise');
  });

  it('keeps a trace whose replay reads otherwise (exit 1), and rewrites it as its replay reads with --accept-replay', async () => {
    const file = join(scratch, 'edited.json');
    const edited = asVersion1(current, (steps) => {
      steps[1]!.notes[0] = `${steps[1]!.notes[0]} (edited by hand)`;
    });
    writeFileSync(file, edited);
    const kept = await run(['migrate-traces', file]);
    expect(kept.code).toBe(1);
    expect(kept.out[0]).toBe(`kept ${file}: step 2 reads otherwise; left as it was (--accept-replay rewrites it as its replay reads, the same verdict)`);
    expect(readFileSync(file, 'utf8')).toBe(edited);
    const accepted = await run(['migrate-traces', file, '--accept-replay']);
    expect(accepted.code).toBe(0);
    expect(accepted.out[0]).toBe(`rewrote ${file} as its replay reads (step 2 reads otherwise; the same verdict)`);
  });

  it('leaves a trace whose target runs a command it names as it is, without running it', async () => {
    const marker = join(scratch, 'ran');
    const file = join(scratch, 'served.json');
    const served = asVersion1(current).replace('"target": "sdk-shared"', `"target": ${JSON.stringify(`serve:touch ${marker}`)}`);
    writeFileSync(file, served);
    const result = await run(['migrate-traces', scratch]);
    expect(result.out).toContain(`kept ${file}: its target runs a command the trace names; its steps stay the lines they were`);
    expect(existsSync(marker)).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe(served);
    // Still read, replayable with the command named, and rendered from its lines.
    expect((await run(['render', file])).code).toBe(0);
  });

  it('refuses a file that is not a trace, and a path that is not there, in one line (exit 2)', async () => {
    const other = join(scratch, 'not-a-trace.json');
    writeFileSync(other, '{"format":"something else"}');
    for (const path of [other, join(scratch, 'missing')]) {
      const result = await run(['migrate-traces', path]);
      expect(result.code).toBe(2);
      expect(result.err).toHaveLength(1);
    }
  });
});
