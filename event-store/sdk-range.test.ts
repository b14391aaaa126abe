// The SDK versions the peer range names, both installed and both run: the lowest (an npm alias, sdk-lowest) and the
// highest (@modelcontextprotocol/sdk itself). On each, the event store resumes a cut tool call end to end over
// loopback HTTP through the SDK's own transport (packages/event-store/test/loopback-resume.mjs, which the package test
// also runs in a fresh project against the packed event-store package).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runNode } from '../test/run-node.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SCRIPT = join(ROOT, 'packages/event-store/test/loopback-resume.mjs');
const manifest = (path: string): { version: string; devDependencies: Record<string, string>; peerDependencies: Record<string, string> } =>
  JSON.parse(readFileSync(join(ROOT, path), 'utf8'));

const PEER = manifest('package.json').peerDependencies['@modelcontextprotocol/sdk']!;
const PACKAGE_PEER = manifest('packages/event-store/package.json').peerDependencies['@modelcontextprotocol/sdk']!;
const LOWEST = /^>=(\d+\.\d+\.\d+) <2$/.exec(PEER)?.[1] ?? null;

const node = runNode;

describe(`the SDK peer range ${PEER}`, () => {
  it('is the same for resumecheck and the event-store package, and its lowest and highest versions are the ones installed', () => {
    expect(PACKAGE_PEER).toBe(PEER);
    expect(LOWEST).not.toBeNull();
    expect(manifest('node_modules/sdk-lowest/package.json').version).toBe(LOWEST);
    expect(manifest('package.json').devDependencies['sdk-lowest']).toBe(`npm:@modelcontextprotocol/sdk@${LOWEST}`);
    expect(manifest('node_modules/@modelcontextprotocol/sdk/package.json').version).toBe(manifest('package.json').devDependencies['@modelcontextprotocol/sdk']);
  });

  for (const sdk of ['sdk-lowest', '@modelcontextprotocol/sdk']) {
    it(`${sdk}: a cut tool call resumes over loopback HTTP with GET + Last-Event-ID, the missed events and the result once each`, async () => {
      const child = await node(['--import', 'tsx', SCRIPT, sdk, '../../../event-store/index.ts'], ROOT);
      expect(child.stderr).toBe('');
      const seen = JSON.parse(child.stdout) as Record<string, unknown>;
      expect(seen).toMatchObject({ before: ['progress 1'], status: 200, after: ['progress 2', 'progress 3', 'result counted to 3'] });
      expect(child.status).toBe(0);
    });
  }
});
