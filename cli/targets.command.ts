// `resumecheck targets`: the built-in targets, from the lazy registry (no SDK is loaded to list them).

import { TARGET_ENTRIES } from '../targets/registry.ts';
import { sharedWallMs } from '../sim/clock.ts';
import { erasOf } from '../sim/eras.ts';
import type { Io, ParsedArgs } from './command-spec.ts';
import { jsonEnvelope } from './json-envelope.ts';

/** Runs `resumecheck targets`. */
export function runTargets({ values }: ParsedArgs, io: Io): number {
  const startedMs = sharedWallMs();
  // `eras`: the protocol eras a target serves (legacy: the 2025 revisions; modern: 2026-07-28), what --protocol may ask.
  // `components`: what an assembled target (an SDK target) is made of, each finding of it charged to one (sim/shrink/attribution.ts).
  const rows = TARGET_ENTRIES.map(({ name, kind, description, breaks, eras, components }) => ({
    name,
    kind,
    description,
    breaks: [...breaks],
    eras: [...erasOf(eras)],
    ...(components === undefined ? {} : { components }),
  }));
  if (values.json === true) io.out(JSON.stringify(jsonEnvelope('targets', {}, sharedWallMs() - startedMs, { targets: rows }), null, 2));
  else {
    for (const row of rows) {
      const indent = ' '.repeat(35);
      const breaks = row.breaks.length > 0 ? `\n${indent}breaks: ${row.breaks.join(', ')}` : '';
      // Only a target that serves 2026-07-28 says so: legacy only is every other target's.
      const eras = row.eras.includes('modern') ? `\n${indent}serves: ${row.eras.map((era) => (era === 'modern' ? '2026-07-28' : 'the 2025 revisions')).join(' and ')}` : '';
      io.out(`${row.name.padEnd(24)} ${row.kind.padEnd(9)} ${row.description}${breaks}${eras}`);
    }
  }
  return 0;
}
