// The progress line: drawn in place on a terminal only, never on a pipe (CI logs) — and never with --json,
// where the fuzz command does not create it at all.

import { describe, expect, it } from 'vitest';
import { createProgress, progressLine } from './progress.ts';

const STATE = { phase: 'search', runs: 1200, steps: 30_000, found: 2, elapsedMs: 3000, remainingMs: 27_000 } as const;

describe('the progress line', () => {
  it('says runs, steps/s, properties found so far and time left', () => {
    expect(progressLine(STATE)).toBe('fuzzing: 1200 runs, 10000 steps/s, 2 properties violated so far, 27 s left');
    expect(progressLine({ ...STATE, phase: 'shrink', found: 1, remainingMs: null })).toBe('shrinking: 1200 runs, 10000 steps/s, 1 property violated so far');
  });

  it('is drawn in place on a TTY, at most every 200 ms of the fuzz, and cleared at the end', () => {
    const written: string[] = [];
    const progress = createProgress({ isTTY: true, columns: 200, write: (text) => written.push(text) })!;
    progress.update(STATE);
    progress.update({ ...STATE, elapsedMs: 3100 });
    progress.update({ ...STATE, elapsedMs: 3300 });
    progress.clear();
    expect(written).toHaveLength(3);
    expect(written[0]).toMatch(/^\r\u001b\[2Kfuzzing: 1200 runs/);
    expect(written[2]).toBe('\r\u001b[2K');
  });

  it('is nothing at all when the stream is no TTY', () => {
    expect(createProgress({ isTTY: false, write: () => undefined })).toBeNull();
    expect(createProgress({ write: () => undefined })).toBeNull();
  });
});
