// The package as a server author gets it: `npm pack`, installed from the tarball into a fresh project, then used
// there from plain Node (both entries, import and require), from TypeScript (a consumer type-checked with tsc), and
// from the command line (npx resumecheck). And the event store alone (packages/event-store), packed and installed
// into another fresh project beside the lowest SDK of the peer range: no other package comes with it, and a cut tool
// call resumes there over loopback HTTP. Needs dist/ built (npm test builds first) and the npm registry, or npm's
// cache, for the dependencies; every child process is bounded in time.

import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packagesOf, runLoggingModules } from './module-log.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MANIFEST = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; devDependencies: Record<string, string> };
/** Installing the tarball's dependencies: seconds from npm's cache, longer from the registry. */
const INSTALL_TIMEOUT_MS = 240_000;
const COMMAND_TIMEOUT_MS = 60_000;

// `npm test` passes npm_* settings to its children; the fresh project's npm must not inherit them.
const ENV = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
ENV['npm_config_update_notifier'] = 'false';
ENV['npm_config_fund'] = 'false';
ENV['npm_config_audit'] = 'false';

const scratch = mkdtempSync(join(tmpdir(), 'resumecheck-package-'));
const app = join(scratch, 'app');
let packed: { filename: string; files: Array<{ path: string }> };

function run(command: string, args: readonly string[], cwd: string, timeout = COMMAND_TIMEOUT_MS): SpawnSyncReturns<string> {
  const child = spawnSync(command, args, { cwd, encoding: 'utf8', timeout, env: ENV });
  if (child.error !== undefined) throw child.error;
  return child;
}

function ok(child: SpawnSyncReturns<string>, what: string): string {
  expect(child.status, `${what}\n${child.stdout}\n${child.stderr}`).toBe(0);
  return child.stdout;
}

/** `npx resumecheck ...` in the fresh project, never downloading (--no): the installed bin or nothing. */
function resumecheck(...args: string[]): SpawnSyncReturns<string> {
  return run('npx', ['--no', '--', 'resumecheck', ...args], app);
}

const STORE = `import { createEventStoreBackend } from 'resumecheck/event-store';
// One backend per server incarnation, kept by the module as a server process would; a store per session.
const backends = new Map();
export default function createStore({ epoch, sessionId, windowEventsMax }) {
  if (!backends.has(epoch)) backends.set(epoch, createEventStoreBackend({ epoch: 'e' + epoch, windowEventsMax }));
  return backends.get(epoch).forSession(sessionId ?? 'shared');
}
`;

const CONSUMER = `import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { type StoreCheckResult, type Target, TARGETS, checkEventStore } from 'resumecheck';
import { type EventStoreBackend, createEventStoreBackend } from 'resumecheck/event-store';

const backend: EventStoreBackend = createEventStoreBackend({ windowEventsMax: 8 });
export const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => 's1', eventStore: backend.forSession('s1') });
export const checked: Promise<StoreCheckResult> = checkEventStore(() => backend.forSession('s2'), { runs: 1 });
export const names: string[] = TARGETS.map((target: Target) => target.name);
// @ts-expect-error the declarations are real types, not any: a window is a number (tsc fails if this is no error)
createEventStoreBackend({ windowEventsMax: 'eight' });
`;

const TSCONFIG = {
  compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: false, types: ['node'] },
  files: ['consumer.ts'],
};

beforeAll(() => {
  expect(existsSync(join(ROOT, 'dist/index.js')), 'dist/ is built (npm run build; npm test does it)').toBe(true);
  // --ignore-scripts: the build ran before the tests; rebuilding here would empty dist/ under the other tests.
  const pack = ok(run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', scratch], ROOT), 'npm pack');
  packed = (JSON.parse(pack) as Array<typeof packed>)[0]!;
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  const types = `@types/node@${MANIFEST.devDependencies['@types/node']}`;
  ok(run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', join(scratch, packed.filename), types], app, INSTALL_TIMEOUT_MS), 'npm install');
  writeFileSync(join(app, 'store.mjs'), STORE);
  writeFileSync(join(app, 'store.ts'), STORE);
  writeFileSync(join(app, 'consumer.ts'), CONSUMER);
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify(TSCONFIG));
}, INSTALL_TIMEOUT_MS + 30_000);

// Removing the fresh project (a node_modules of its own) can take longer than the default hook timeout on a loaded machine.
afterAll(() => rmSync(scratch, { recursive: true, force: true }), COMMAND_TIMEOUT_MS);

describe('the packed package, installed into a fresh project', () => {
  it('ships the compiled code, its declarations and the docs, and no tests, bench or sources', () => {
    const files = packed.files.map((file) => file.path);
    for (const wanted of ['package.json', 'README.md', 'bin/resumecheck.mjs', 'dist/index.js', 'dist/index.d.ts', 'dist/event-store/index.js', 'dist/event-store/index.d.ts', 'dist/cli/run.js']) {
      expect(files).toContain(wanted);
    }
    expect(files.filter((path) => /\.test\.|^(bench|test|traces|scratch|\.ci|\.github)\//.test(path))).toEqual([]);
    expect(files.filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts'))).toEqual([]);
  });

  it('plain node imports and requires both entries', () => {
    const imported = ok(run(process.execPath, ['--input-type=module', '-e', "const [a, b] = await Promise.all([import('resumecheck'), import('resumecheck/event-store')]); console.log(typeof a.checkEventStore, typeof b.createEventStoreBackend)"], app), 'import');
    expect(imported.trim()).toBe('function function');
    const required = ok(run(process.execPath, ['-e', "console.log(typeof require('resumecheck').fuzz, typeof require('resumecheck/event-store').createEventStoreBackend)"], app), 'require');
    expect(required.trim()).toBe('function function');
  });

  it('resumecheck/event-store loads no other package (no simulator, no SDK: it uses only its types)', () => {
    const loaded = runLoggingModules(['--input-type=module', '-e', "const m = await import('resumecheck/event-store'); m.createEventStoreBackend({ epoch: 'e1' }).forSession('s1');"], app);
    expect(loaded.stderr).toBe('');
    expect(loaded.status).toBe(0);
    expect(loaded.modules.some((url) => url.includes('/node_modules/resumecheck/dist/event-store/index.js'))).toBe(true);
    expect(packagesOf(loaded.modules)).toEqual(['resumecheck']);
    // The control: the main entry does load the simulator's dependencies, and the log sees them.
    const main = runLoggingModules(['--input-type=module', '-e', "await import('resumecheck')"], app);
    expect(packagesOf(main.modules)).toEqual(expect.arrayContaining(['fast-check', 'xstate']));
  });

  it('a TypeScript consumer type-checks against the declarations (tsc, skipLibCheck off)', () => {
    ok(run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', '.'], app), 'tsc');
  });

  it('npx resumecheck --version and a short fuzz run the installed bin', () => {
    expect(ok(resumecheck('--version'), '--version').trim()).toBe(`resumecheck ${MANIFEST.version}`);
    expect(ok(resumecheck('fuzz', '--target', 'reference', '--runs', '20'), 'fuzz reference')).toContain('✓ no violation in 20 runs');
    const planted = resumecheck('fuzz', '--target', 'no-owner-check', '--runs', '300', '--first', '--out', 'found');
    expect(planted.status, planted.stderr).toBe(1);
    const [trace] = readdirSync(join(app, 'found'));
    expect(trace).toMatch(/^no-owner-check--/);
    expect(resumecheck('replay', join('found', trace!)).stdout).toContain('reproduced:');
  });

  it("check-store checks a server author's .js store; a .ts store without tsx installed is one clear line, exit 2", () => {
    expect(ok(resumecheck('check-store', 'store.mjs', '--runs', '5'), 'check-store')).toContain('✓ no store violation');
    const typescript = resumecheck('check-store', 'store.ts', '--runs', '5');
    expect(typescript.status).toBe(2);
    expect(typescript.stderr.trim()).toBe('resumecheck: store.ts: a .ts store module needs tsx to load it (npm install --save-dev tsx), or give the compiled .js file');
  });
});

describe('the event store alone (packages/event-store), installed into a fresh project with the lowest SDK of the range', () => {
  const storeApp = join(scratch, 'store-app');
  const peer = (JSON.parse(readFileSync(join(ROOT, 'packages/event-store/package.json'), 'utf8')) as { peerDependencies: Record<string, string> }).peerDependencies['@modelcontextprotocol/sdk']!;
  const lowest = /^>=(\d+\.\d+\.\d+) /.exec(peer)?.[1];

  beforeAll(() => {
    expect(lowest, `the peer range ${peer} names its lowest version`).toBeDefined();
    // Not --ignore-scripts: its prepack builds its dist/ from event-store/ and core/ (the root's dist/ is not touched).
    const pack = ok(run('npm', ['pack', '--json', '--pack-destination', scratch], join(ROOT, 'packages/event-store')), 'npm pack (event store)');
    const tarball = (JSON.parse(pack.slice(pack.indexOf('['))) as Array<{ filename: string }>)[0]!.filename;
    mkdirSync(storeApp);
    writeFileSync(join(storeApp, 'package.json'), JSON.stringify({ name: 'store-consumer', private: true, type: 'module' }));
    ok(run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', join(scratch, tarball), `@modelcontextprotocol/sdk@${lowest}`], storeApp, INSTALL_TIMEOUT_MS), 'npm install (event store)');
    writeFileSync(join(storeApp, 'loopback-resume.mjs'), readFileSync(join(ROOT, 'packages/event-store/test/loopback-resume.mjs')));
  }, INSTALL_TIMEOUT_MS + 60_000);

  it('pulls no package of the checker: its tree is the SDK and what the SDK needs', () => {
    const tree = run('npm', ['ls', '--all', '--parseable'], storeApp);
    expect(tree.status, tree.stderr).toBe(0);
    const names = tree.stdout.split('\n').filter((line) => line.includes('node_modules')).map((line) => line.slice(line.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(names).toContain('resumecheck-event-store');
    expect(names).toContain('@modelcontextprotocol/sdk');
    for (const checker of ['fast-check', 'pure-rand', 'seedrandom', 'xstate', 'resumecheck']) expect(names).not.toContain(checker);
    const sdk = JSON.parse(readFileSync(join(storeApp, 'node_modules/@modelcontextprotocol/sdk/package.json'), 'utf8')) as { version: string };
    expect(sdk.version).toBe(lowest);
  });

  it('a cut tool call resumes over loopback HTTP through the SDK transport with the installed store', () => {
    const child = run(process.execPath, ['loopback-resume.mjs'], storeApp);
    expect(child.stderr).toBe('');
    expect(JSON.parse(child.stdout)).toMatchObject({ before: ['progress 1'], status: 200, after: ['progress 2', 'progress 3', 'result counted to 3'] });
    expect(child.status).toBe(0);
  });
});
