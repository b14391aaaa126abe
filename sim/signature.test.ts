// A finding's signature tells one mechanism of a property from another; the candidate book keeps up to
// `perProperty` of them per property, chosen on run ordinals alone (never on arrival order); the shrinker keeps a
// finding's signature, so shrinking never relabels, merges or drops one.

import { describe, expect, it } from 'vitest';
import type { PropertyName } from '../properties/names.ts';
import { findTarget } from '../targets/index.ts';
import { resolveConfig } from './config.ts';
import { K } from './actions.ts';
import { fuzz } from './search/fuzz.ts';
import { BOUND_NONE, type Candidate, CandidateBook } from './search/fuzz-search.ts';
import { findingKey, signatureOf } from './signature.ts';

function candidate(ordinal: number, property: PropertyName, signature: string, length: number): Candidate {
  return { ordinal, run: ordinal + 1, violation: { property, step: 0, explanation: '', signature }, choices: Array.from({ length }, () => 0), steps: length, healSteps: 0 };
}

describe('signatures', () => {
  it('name the step, the answer and the property\'s own word for how', () => {
    const frame = { eventId: 'e1', event: null, data: { jsonrpc: '2.0', method: 'tools/call', id: 2 }, retryMs: null } as never;
    expect(signatureOf(K.resumeLatest, frame, 'x')).toBe('resumeLatest / request frame');
    expect(signatureOf(-1, 'settled', { explanation: 'x', mechanism: 'resume of a settled call, the cursor of a result' })).toBe('settled / resume of a settled call, the cursor of a result');
    expect(signatureOf(-2, 'execution', 'x')).toBe('start / execution');
    expect(findingKey({ property: 'no-hang', signature: 'settled' })).not.toBe(findingKey({ property: 'no-hang', signature: 'resume / status 200' }));
  });
});

describe('the candidate book keeps up to perProperty signatures per property', () => {
  const offers = [
    candidate(5, 'no-hang', 'a', 9),
    candidate(2, 'no-hang', 'b', 7),
    candidate(9, 'no-hang', 'c', 3),
    candidate(3, 'no-hang', 'a', 4),
    candidate(1, 'well-formed-messages', 'z', 6),
    candidate(7, 'well-formed-messages', 'y', 2),
  ];
  const chosen = (order: readonly Candidate[], perProperty: number): string[] => {
    const book = new CandidateBook({ stopAtFirst: false, propertiesChecked: 2, perProperty });
    for (const offer of order) book.offer(offer);
    return book.chosen().map((pick) => `${pick.violation.property}/${pick.violation.signature}@${pick.ordinal}`);
  };

  it('chooses the signatures first met (by ordinal), the shortest run of each, whatever the arrival order', () => {
    const forwards = chosen(offers, 2);
    expect(forwards).toEqual(['well-formed-messages/z@1', 'well-formed-messages/y@7', 'no-hang/b@2', 'no-hang/a@3']);
    expect(chosen([...offers].reverse(), 2)).toEqual(forwards);
    expect(chosen([offers[2]!, offers[0]!, offers[4]!, offers[1]!, offers[5]!, offers[3]!], 2)).toEqual(forwards);
    // One per property: the first property's shortest of its first signature, as before signatures.
    expect(chosen(offers, 1)).toEqual(['well-formed-messages/z@1', 'no-hang/b@2']);
  });

  it('bounds the runs that count once every property has perProperty signatures', () => {
    const book = new CandidateBook({ stopAtFirst: false, propertiesChecked: 2, perProperty: 2 });
    book.offer(offers[0]!);
    book.offer(offers[4]!);
    expect(book.bound()).toBe(BOUND_NONE);
    book.offer(offers[1]!);
    book.offer(offers[5]!);
    // no-hang's second signature first seen at 5, well-formed-messages' at 7.
    expect(book.bound()).toBe(7);
    book.offer(offers[3]!);
    expect(book.bound()).toBe(7);
  });
});

describe('a fuzz keeps every mechanism apart, each shrunk under its own signature (no-ledger, seed 7)', () => {
  it('the findings of exactly-once-execution differ in signature, and each shrunk trace keeps the signature it was found with', async () => {
    const outcome = await fuzz({
      target: findTarget('no-ledger')!,
      config: resolveConfig({ seed: '7' }),
      runsMax: 2000,
      timeMs: null,
      stopAtFirst: false,
      perProperty: 3,
      properties: ['exactly-once-execution'],
    });
    expect(outcome.findings.length).toBeGreaterThanOrEqual(2);
    const signatures = outcome.findings.map((finding) => finding.trace.verdict!.signature);
    expect(new Set(signatures).size).toBe(signatures.length);
    for (const finding of outcome.findings) {
      expect(finding.shrunk).toBe(true);
      expect(finding.trace.verdict!.signature).toBe(finding.original.violation!.signature);
    }
  });
});
