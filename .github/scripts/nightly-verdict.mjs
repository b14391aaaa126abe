#!/usr/bin/env node
// The nightly fuzz job's verdict on the traces one shard found (plain Node, no dependencies). A counterexample is
// KNOWN when the corpus (traces/corpus/) holds a counterexample of the same property on the same target; every other
// one is NEW.
//
//   node .github/scripts/nightly-verdict.mjs --fail-on any|new FOUND_DIR [CORPUS_DIR]
//
// --fail-on any: every counterexample fails the job (the reference must hold everything).
// --fail-on new: only a NEW one fails it (sdk-core has known transport defects, each kept in the corpus).
// Exit 0: nothing that fails; 1: something that fails (each printed with its replay command); 2: bad input.

import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

function badInput(message) {
  process.stderr.write(`nightly-verdict: ${message}\n`);
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({ options: { 'fail-on': { type: 'string' } }, allowPositionals: true, strict: true });
} catch (error) {
  badInput(error.message.split('\n')[0]);
}
const failOn = parsed.values['fail-on'];
const [foundDir, corpusDir = 'traces/corpus', extra] = parsed.positionals;
if (failOn !== 'any' && failOn !== 'new') badInput('--fail-on takes any or new');
if (foundDir === undefined || extra !== undefined) badInput('usage: nightly-verdict.mjs --fail-on any|new FOUND_DIR [CORPUS_DIR]');

/** The counterexample traces in a folder (not below it), sorted by file name: { file, target, property }. */
function counterexamples(folder) {
  if (!existsSync(folder)) return [];
  const traces = [];
  for (const name of readdirSync(folder).sort()) {
    if (!name.endsWith('.json')) continue;
    const file = join(folder, name);
    let trace;
    try {
      trace = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      badInput(`${file}: not JSON (${error.message.split('\n')[0]})`);
    }
    // Other JSON beside the traces (the fuzz command's own output) is not a trace.
    if (trace === null || typeof trace !== 'object' || trace.format !== 'resumecheck-trace') continue;
    const property = trace.verdict?.property;
    if (typeof property === 'string') traces.push({ file, target: trace.target, property });
  }
  return traces;
}

const known = new Map(counterexamples(corpusDir).map((trace) => [`${trace.target} ${trace.property}`, trace.file]));
const found = counterexamples(foundDir);
let failing = 0;
for (const trace of found) {
  const corpus = known.get(`${trace.target} ${trace.property}`);
  const fails = failOn === 'any' || corpus === undefined;
  if (fails) failing += 1;
  const label = corpus === undefined ? 'NEW  ' : 'known';
  process.stdout.write(`${fails ? '✗' : '·'} ${label} ${trace.target} ${trace.property}: ${trace.file}${corpus === undefined ? '' : ` (like ${corpus})`}\n`);
  if (fails) process.stdout.write(`    replay it: npx resumecheck replay ${trace.file}\n`);
}
process.stdout.write(`${found.length} counterexample(s), ${failing} failing the job (--fail-on ${failOn})\n`);
process.exit(failing === 0 ? 0 : 1);
