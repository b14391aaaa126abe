// The version of an installed npm package, read from its own package.json: what a trace records as the SDK it ran
// on must be what was installed, not what a constant claims.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** Directories walked up from an entry point before giving up on finding its package.json. */
const DEPTH_MAX = 8;

/**
 * The installed version of `packageName`, found by resolving `entry` (an import path the package exports: its
 * package.json is usually not exported) and walking up to the package.json that names the package.
 */
export function installedVersion(packageName: string, entry: string): string {
  let directory = dirname(createRequire(import.meta.url).resolve(entry));
  for (let depth = 0; depth < DEPTH_MAX; depth += 1) {
    try {
      const manifest = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
      if (manifest.name === packageName && typeof manifest.version === 'string') return manifest.version;
    } catch (error) {
      // A directory without a package.json (or a nested {"type": "module"} stub) is passed on the way up.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    directory = dirname(directory);
  }
  throw new Error(`assertion: no package.json naming ${packageName} above ${entry}`);
}
