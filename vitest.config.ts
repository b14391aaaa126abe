import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'traces/found/**', 'dist/**'],
    // A hang guard, not a budget: the longest test counts about 30 s of work on a quiet 2-core machine (the
    // modern-cursor-replays search to depth 6, once in one thread and once in two, in sim/explore-workers.test.ts),
    // and a loaded machine may take a few times as long. No test sets a shorter one: a shorter guard is what a busy
    // machine misses.
    testTimeout: 120_000,
    pool: 'forks',
    // vitest's default in run mode is one fork fewer than the cores: one fork on a 2-core machine, the files one after
    // another. The files are independent (each server, redis and temporary directory a test starts takes a free port
    // or a fresh path), and many wait on child processes and sockets, so one fork a core, two at least.
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
