import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'traces/found/**', 'dist/**'],
    testTimeout: 120_000,
    pool: 'forks',
  },
});
