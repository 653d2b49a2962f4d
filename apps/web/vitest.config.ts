// The 'web' test project: component tests in jsdom, run from the repo root with `vitest run --project web`.
import { defineProject } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { contractsAlias } from './contracts-alias.ts';

export default defineProject({
  plugins: [react()],
  resolve: { alias: contractsAlias },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.tsx'],
    setupFiles: ['./src/test/setup.ts'],
    unstubGlobals: true,
    restoreMocks: true,
    // A test that types several searches key by key or pages through a table takes 4-5 s alone on two cores, and more
    // while the server suites run beside it (CI): vitest's 5 s default failed such tests on load alone.
    testTimeout: 15_000,
  },
});
