// The protocol revision each simulated client speaks: the configured one, or with `mixed` one drawn per client from
// a PRNG seeded by the run's own seed, so that a campaign's runs meet both eras (and every revision) in most runs.

import type { ProtocolEra } from '../targets/target.ts';
import { LEGACY_REVISIONS, MODERN_REVISION, type ProtocolChoice, REVISIONS, type Revision, type SimConfig } from './config.ts';
import { defaultRevision, erasOf } from './eras.ts';
import { createPrng } from './prng.ts';

/**
 * The revision of each of a run's clients. Deterministic in (config, eras): replay gets the same revisions from the
 * trace's config. With `mixed` on a dual-era target, three runs in four put both eras side by side (one random client
 * is modern, the others legacy), the rest are all one era; legacy clients draw their revision uniformly.
 */
export function clientRevisions(config: SimConfig, eras: readonly ProtocolEra[] | undefined): Revision[] {
  const protocol = config.protocol;
  if (protocol === undefined) return new Array<Revision>(config.clients).fill(defaultRevision(eras));
  if (protocol !== 'mixed') return new Array<Revision>(config.clients).fill(protocol);
  const served = erasOf(eras);
  const prng = createPrng(`${config.seed}/protocol`);
  const legacy = (): Revision => LEGACY_REVISIONS[prng.below(LEGACY_REVISIONS.length)]!;
  if (!served.includes('modern')) return Array.from({ length: config.clients }, legacy);
  if (!served.includes('legacy')) return new Array<Revision>(config.clients).fill(MODERN_REVISION);
  const pattern = prng.float();
  const modernClient = prng.below(config.clients);
  return Array.from({ length: config.clients }, (_, index) => {
    const modern = config.clients === 1 || pattern >= 0.75 ? pattern < 0.5 || pattern >= 0.875 : index === modernClient;
    return modern ? MODERN_REVISION : legacy();
  });
}

/** Every revision {@link clientRevisions} may give a client under `protocol` on a target serving `eras`. */
export function possibleRevisions(protocol: ProtocolChoice | undefined, eras: readonly ProtocolEra[] | undefined): readonly Revision[] {
  if (protocol === undefined) return [defaultRevision(eras)];
  if (protocol !== 'mixed') return [protocol];
  const served = erasOf(eras);
  if (!served.includes('modern')) return LEGACY_REVISIONS;
  if (!served.includes('legacy')) return [MODERN_REVISION];
  return REVISIONS;
}
