import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['**/node_modules/**', 'traces/found/**', 'dist/**'],
    // A hang guard, not a budget: a test's work is at most about 25 s in a full run on a 2-core machine (the README's
    // main job, 24 s; the planted bug at depth 6 in sim/search/explore-workers.test.ts, 18 s; check-store's recycling
    // test took 42 s before it was sized down). Beside six other engineers' work (load 30 on 2 cores) the whole suite
    // got 0.28 of a core and a 20 s test took over 120 s, so the guard is over twenty times the longest test's work.
    // No test sets another one (a shorter guard is what a busy machine misses).
    testTimeout: 600_000,
    // Hooks start servers, redis and chromium: the same guard (vitest's own is 10 s).
    hookTimeout: 600_000,
    pool: 'forks',
    // vitest's default in run mode is one fork fewer than the cores: one fork on a 2-core machine, the files one after
    // another. The files are independent (each server, redis and temporary directory a test starts takes a free port
    // or a fresh path), and many wait on child processes and sockets, so one fork a core, two at least.
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
