// Which modules a Node process loads: a resolve hook (registered with --import) appends every resolved URL to a file.
// Tests use it to show that `--help` or `resumecheck/event-store` load nothing they do not need.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const HOOKS = `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(process.env.RESUMECHECK_MODULE_LOG, resolved.url + '\\n');
  return resolved;
}
`;
const REGISTER = `import { register } from 'node:module';
register('./hooks.mjs', import.meta.url);
`;

/** What a process printed and loaded. */
export interface LoggedRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Every module URL resolved, in order, without repeats. */
  readonly modules: readonly string[];
}

/** Runs `node ...args` in `cwd` with the resolve hook; bounded by `timeoutMs`. */
export function runLoggingModules(args: readonly string[], cwd: string, timeoutMs = 60_000): LoggedRun {
  const folder = mkdtempSync(join(tmpdir(), 'resumecheck-modules-'));
  try {
    writeFileSync(join(folder, 'hooks.mjs'), HOOKS);
    writeFileSync(join(folder, 'register.mjs'), REGISTER);
    const log = join(folder, 'modules.log');
    writeFileSync(log, '');
    const child = spawnSync(process.execPath, ['--import', pathToFileURL(join(folder, 'register.mjs')).href, ...args], {
      cwd,
      encoding: 'utf8',
      timeout: timeoutMs,
      env: { ...process.env, RESUMECHECK_MODULE_LOG: log },
    });
    const modules = [...new Set(readFileSync(log, 'utf8').split('\n').filter((line) => line !== ''))];
    return { status: child.status, stdout: child.stdout, stderr: child.stderr, modules };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The npm packages among `modules` (from their node_modules paths), sorted. */
export function packagesOf(modules: readonly string[]): string[] {
  const names = new Set<string>();
  for (const url of modules) {
    const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
    if (match !== null) names.add(match[1]!);
  }
  return [...names].sort();
}
