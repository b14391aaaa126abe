// The trace files kept under traces/ (the corpus, fixtures, anything a later kind adds) and beside the findings
// (docs/findings/*-traces/: over the wire, several nodes), for the renderers' tests and the README's screenshot: every
// JSON file, in a stable order, but found/ (what a local fuzz left, not kept).

import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root. */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TRACES = join(ROOT, 'traces');
const FINDINGS = join(ROOT, 'docs', 'findings');

/** Every kept trace file under traces/, then under docs/findings/*-traces/, as paths relative to the repository's root. */
export function keptTraceFiles(): string[] {
  const files: string[] = [];
  const walk = (directory: string, depth: number) => {
    // Bounded: the folder is a few levels deep; a link loop must not hang a test.
    if (depth > 8) return;
    for (const entry of readdirSync(directory, { withFileTypes: true }).sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0))) {
      const path = join(directory, entry.name);
      if (entry.isDirectory() && !(depth === 0 && entry.name === 'found')) walk(path, depth + 1);
      else if (entry.isFile() && entry.name.endsWith('.json')) files.push(relative(ROOT, path));
    }
  };
  walk(TRACES, 0);
  for (const entry of readdirSync(FINDINGS, { withFileTypes: true }).sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0))) {
    if (entry.isDirectory() && entry.name.endsWith('-traces')) walk(join(FINDINGS, entry.name), 1);
  }
  return files;
}
