import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'traces/found/**', 'dist/**'],
    // A hang guard, not a budget: a test's work is at most about 20 s on a quiet 2-core machine (check-store's
    // recycling test: three checks of 60 runs), and a loaded one may take several times as long. No test sets a
    // shorter guard (a shorter one is what a busy machine misses); the one test with more work
    // (sim/explore-workers.test.ts, a planted bug at depth 6, searched twice: about 30 s) sets a longer one, from its
    // counted sequences.
    testTimeout: 120_000,
    pool: 'forks',
    // vitest's default in run mode is one fork fewer than the cores: one fork on a 2-core machine, the files one after
    // another. The files are independent (each server, redis and temporary directory a test starts takes a free port
    // or a fresh path), and many wait on child processes and sockets, so one fork a core, two at least.
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
