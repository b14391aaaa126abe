// The package's version, read from its package.json: two levels up from the compiled dist/cli/, one from cli/.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** How many folders up from this file package.json is looked for (dist/cli/version.js is two below it). */
const LEVELS_MAX = 3;

/** The version in resumecheck's package.json, or "unknown" when it cannot be found. */
export function packageVersion(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  for (let level = 0; level < LEVELS_MAX; level += 1) {
    folder = dirname(folder);
    const file = join(folder, 'package.json');
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown; version?: unknown };
    if (manifest.name === 'resumecheck' && typeof manifest.version === 'string') return manifest.version;
  }
  return 'unknown';
}
