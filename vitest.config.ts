// One test command for the whole repo: server API tests (PGlite always, PostgreSQL too when DATABASE_URL
// is set) and web component tests in jsdom.
import { defineConfig } from 'vitest/config';
import type { TestProjectInlineConfiguration } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const contracts = fileURLToPath(new URL('./packages/contracts/src/index.ts', import.meta.url));
const alias = { '@eta/contracts': contracts };

const serverProject = (name: string, backend: 'pglite' | 'postgres'): TestProjectInlineConfiguration => ({
  resolve: { alias },
  test: {
    name,
    root: './apps/server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Restarting on the same data directory is a property of the embedded database only; several server processes
    // on one database, one of them killed (cluster-*), of PostgreSQL only.
    exclude: backend === 'postgres' ? ['test/embedded-*.test.ts'] : ['test/cluster-*.test.ts'],
    environment: 'node',
    env: { TEST_DB: backend },
    globalSetup: ['./test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  test: {
    projects: [
      serverProject('server-pglite', 'pglite'),
      ...(process.env.DATABASE_URL ? [serverProject('server-postgres', 'postgres')] : []),
      './apps/web/vitest.config.ts',
    ],
  },
});
