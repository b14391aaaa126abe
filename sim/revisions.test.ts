// Which revision each client speaks: fixed by the config and the target's eras (replay gets the same from a trace's
// config), and with `mixed`, both eras side by side in most runs of a campaign.

import { describe, expect, it } from 'vitest';
import { LEGACY_REVISIONS, MODERN_REVISION, resolveConfig } from './config.ts';
import { defaultRevision, protocolMismatch } from './eras.ts';
import { clientRevisions } from './revisions.ts';

const DUAL = ['legacy', 'modern'] as const;

describe('clientRevisions (seeds 1.1 .. 1.1000)', () => {
  it('no protocol: every client speaks the target default (2025-11-25; 2026-07-28 on a modern-only target)', () => {
    expect(clientRevisions(resolveConfig({ seed: '1' }), undefined)).toEqual(['2025-11-25', '2025-11-25']);
    expect(clientRevisions(resolveConfig({ seed: '1' }), DUAL)).toEqual(['2025-11-25', '2025-11-25']);
    expect(clientRevisions(resolveConfig({ seed: '1', clients: 3 }), ['modern'])).toEqual([MODERN_REVISION, MODERN_REVISION, MODERN_REVISION]);
    expect(defaultRevision(['modern'])).toBe(MODERN_REVISION);
  });

  it('mixed: the same seed gives the same revisions; most runs meet both eras; every revision is drawn', () => {
    let both = 0;
    const seen = new Set<string>();
    for (let run = 1; run <= 1000; run += 1) {
      const config = resolveConfig({ seed: `1.${run}`, protocol: 'mixed' });
      const revisions = clientRevisions(config, DUAL);
      expect(clientRevisions(config, DUAL)).toEqual(revisions);
      for (const revision of revisions) seen.add(revision);
      if (revisions.includes(MODERN_REVISION) && revisions.some((revision) => revision !== MODERN_REVISION)) both += 1;
    }
    expect(both).toBeGreaterThan(700);
    expect(both).toBeLessThan(800);
    expect([...seen].sort()).toEqual([...LEGACY_REVISIONS, MODERN_REVISION]);
  });

  it('mixed on a legacy-only target draws legacy revisions only; on a modern-only target, 2026-07-28 only', () => {
    for (let run = 1; run <= 200; run += 1) {
      const config = resolveConfig({ seed: `1.${run}`, protocol: 'mixed', clients: 3 });
      for (const revision of clientRevisions(config, undefined)) expect(LEGACY_REVISIONS).toContain(revision);
      expect(clientRevisions(config, ['modern'])).toEqual([MODERN_REVISION, MODERN_REVISION, MODERN_REVISION]);
    }
  });

  it('a revision the target does not serve is named as such; mixed and no protocol always fit', () => {
    expect(protocolMismatch(MODERN_REVISION, undefined)).toMatch(/only the legacy era/);
    expect(protocolMismatch('2025-06-18', ['modern'])).toMatch(/only the modern era/);
    expect(protocolMismatch(MODERN_REVISION, DUAL)).toBeNull();
    expect(protocolMismatch('mixed', ['modern'])).toBeNull();
    expect(protocolMismatch(undefined, ['modern'])).toBeNull();
  });
});
