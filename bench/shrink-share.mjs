#!/usr/bin/env node
// The goal row "shrinking's share of the --no-corpus main job" (bench/goals.ts), for one checkout:
//
//   node bench/shrink-share.mjs CHECKOUT
//
// runs, in this process, the fuzz `resumecheck fuzz --target sdk-shared --no-corpus` makes (seed 1, 2 000 runs, every
// property, as many findings per property as that checkout's CLI keeps by default — its PER_PROPERTY_DEFAULT, one
// where it has none —, coverage counted, the CLI's default workers for an SDK target), through CHECKOUT's compiled
// library (its dist/, from `npm run build`), and prints one JSON line: the fuzz's time, the search's part of it (the
// fuzz's own `searchMs`: its lanes running), and each finding's mechanism, lengths and shrink runs.
// Plain JavaScript, so the same file drives any checkout's dist/; the bench runs it once per checkout, as a whole
// process each. Stored traces are not replayed (--no-corpus, a fresh --out): nothing is known before the search.

import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const checkout = process.argv[2];
if (checkout === undefined) {
  process.stderr.write('usage: node bench/shrink-share.mjs CHECKOUT\n');
  process.exit(2);
}
const load = (path) => import(pathToFileURL(join(checkout, 'dist', path)).href);
// The fuzz moved into sim/search/; a baseline checkout from before has it at sim/fuzz.js.
const { fuzz } = await load('sim/search/fuzz.js').catch(() => load('sim/fuzz.js'));
const { resolveConfig, PER_PROPERTY_DEFAULT } = await load('sim/config.js');
const { targetEntry } = await load('targets/registry.js');
const { defaultWorkers } = await load('cli/fuzz.command.js');

const target = await targetEntry('sdk-shared').load();
const workers = defaultWorkers(target);
// A checkout from before findings were kept per mechanism kept one a property.
const perProperty = PER_PROPERTY_DEFAULT ?? 1;
const outcome = await fuzz({ target, config: resolveConfig({ seed: '1' }), runsMax: 2000, timeMs: null, stopAtFirst: false, workers, perProperty, coverage: true });
process.stdout.write(
  `${JSON.stringify({
    target: target.name,
    workers,
    perProperty,
    runs: outcome.runs,
    elapsedMs: outcome.elapsedMs,
    searchMs: outcome.searchMs,
    findings: outcome.findings.map((finding) => ({
      property: finding.trace.verdict.property,
      signature: finding.trace.verdict.signature ?? null,
      run: finding.run,
      originalLength: finding.shrink.originalLength,
      shrunkLength: finding.trace.choices.length,
      evaluations: finding.shrink.evaluations,
      cutShort: finding.shrink.cutShort === true,
    })),
  })}\n`,
);
