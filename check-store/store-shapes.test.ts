// Correct stores of the shapes server authors write hold (exit 0 from the CLI), and a broken variant of each is caught
// by the property its defect breaks: per-session counter IDs that repeat across sessions, random IDs without
// getStreamIdForEventId, every call awaiting a 0-15 ms timer, a file-backed log, and Redis Streams on a real
// redis-server this test starts on 127.0.0.1. (The 2000-run checks are in check-store/README.md, run by hand.)

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkEventStore } from './check-event-store.ts';
import { type RedisServer, redisServerAvailable, startRedisServer } from '../test/redis-server.ts';

const FIXTURES = 'check-store/fixtures';

interface Shape {
  readonly file: string;
  readonly broken: string;
  /** The failure the broken variant must show. */
  readonly property: string;
  readonly runs: number;
  readonly durable?: boolean;
  /**
   * Steps of the broken variant's runs, when fewer than the default catch it: every call of the timer store waits in
   * real time, and so does every candidate of its findings' shrinks (9.6 s at the default, 0.5 s at 8 steps, alone).
   */
  readonly caughtSteps?: number;
}

const SHAPES: readonly Shape[] = [
  { file: 'counter-store.ts', broken: 'includesCursorStore', property: 'replay-exact', runs: 25 },
  { file: 'random-id-store.ts', broken: 'sharedMapStore', property: 'session-isolation', runs: 25 },
  { file: 'timer-store.ts', broken: 'numberAfterAwaitStore', property: 'event-ids-unique', runs: 6, caughtSteps: 8 },
  { file: 'file-log-store.ts', broken: 'countAfterAwaitStore', property: 'event-ids-unique', runs: 10 },
];

async function expectHolds(shape: Shape, seed: string): Promise<void> {
  const result = await checkEventStore(`${FIXTURES}/${shape.file}`, { runs: shape.runs, seed, durable: shape.durable ?? false });
  expect(result.violations.filter((violation) => violation.severity === 'failure').map((violation) => `${violation.phase} ${violation.property}: ${violation.explanation}`)).toEqual([]);
  expect(result.holds).toBe(true);
  // What such a store may be told: IDs that repeat across sessions are advice (seed 000), never a failure.
  for (const violation of result.violations) expect(violation.severity).not.toBe('failure');
}

async function expectCaught(shape: Shape, seed: string): Promise<void> {
  // Each broken variant fails in its first runs; fewer runs mean fewer distinct findings to shrink.
  const result = await checkEventStore({ path: `${FIXTURES}/${shape.file}`, exportName: shape.broken }, { runs: 3, seed, durable: shape.durable ?? false, endToEndRuns: 0, ...(shape.caughtSteps === undefined ? {} : { sizes: { steps: shape.caughtSteps } }) });
  expect(result.holds).toBe(false);
  expect(result.violations.filter((violation) => violation.severity === 'failure').map((violation) => violation.property)).toContain(shape.property);
}

describe('correct stores of common shapes hold; their broken variants are caught', () => {
  for (const shape of SHAPES) {
    it(`${shape.file} holds (seed 1 and seed 2), ${shape.runs} runs per phase`, async () => {
      await expectHolds(shape, '1');
      await expectHolds(shape, '2');
    });
    it(`${shape.file} --export ${shape.broken} fails ${shape.property} (seed 1)`, async () => {
      await expectCaught(shape, '1');
    });
  }
});

const REDIS = redisServerAvailable();

describe.skipIf(!REDIS)('Redis Streams on a redis-server started here (127.0.0.1, a free port, no persistence)', () => {
  let server: RedisServer | null = null;
  const shape: Shape = { file: 'redis-streams-store.ts', broken: 'inclusiveStore', property: 'replay-exact', runs: 20, durable: true };
  beforeAll(async () => {
    server = await startRedisServer();
    process.env['RESUMECHECK_REDIS_URL'] = server.url;
  });
  afterAll(async () => {
    delete process.env['RESUMECHECK_REDIS_URL'];
    await server?.stop();
  });
  it('the correct store holds with --durable (seed 1)', async () => {
    await expectHolds(shape, '1');
  });
  it('the store replaying from the cursor inclusive fails replay-exact (seed 1)', async () => {
    await expectCaught(shape, '1');
  });
});

describe.runIf(!REDIS)('Redis Streams', () => {
  it('skipped: no redis-server can be run on this machine (.ci/run installs it)', () => {
    expect(REDIS).toBe(false);
  });
});
