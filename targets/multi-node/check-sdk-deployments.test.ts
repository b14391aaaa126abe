// The deployment check itself, bounded: the fuzz's first runs of an SDK deployment complete without a harness crash.
// Seed 1's run 101 on sdk-core@3:failover crashed before the fix (a node crash while a call under a reused request ID
// ran); the full check (every SDK target × 2 and 3 nodes × every balancer) is the script, run by hand.

import { describe, expect, it } from 'vitest';
import { SDK_SERVER_TARGETS, checkDeployment } from './check-sdk-deployments.ts';

describe('SDK deployments run to their last step (seed 1)', () => {
  it('lists every SDK server target', () => {
    expect(SDK_SERVER_TARGETS).toContain('sdk-core');
    expect(SDK_SERVER_TARGETS).toContain('sdk2-modern');
    expect(SDK_SERVER_TARGETS).not.toContain('client-sdk');
  });

  it('seed 1: sdk-core@3:failover, 110 runs: none crashes', async () => {
    const check = await checkDeployment('sdk-core', 3, 'failover', '1', 110);
    expect(check.crash).toBeNull();
    expect(check.runs).toBe(110);
  });

  it('seed 1: sdk-core@3:round-robin judged, 5 runs: no session survives its second request', async () => {
    const check = await checkDeployment('sdk-core', 3, 'round-robin', '1', 5, { judge: true });
    expect(check.crash).toBeNull();
    expect(check.violated).toEqual([]);
    expect(check.sessions!.established).toBeGreaterThan(10);
    expect(check.sessions!.survived).toBe(0);
  });
});
