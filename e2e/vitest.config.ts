// Browser tests: the built server on a temporary embedded database, driven through Debian's chromium.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'e2e',
    root: './e2e',
    include: ['**/*.e2e.test.ts'],
    environment: 'node',
    // One data folder with the default demo data, started on once; each file's server starts on a copy of it.
    globalSetup: ['./global-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    fileParallelism: false,
  },
});
