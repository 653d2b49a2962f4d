// One test command for the whole repo: the server's tests through a database (apps/server/test: PGlite always,
// PostgreSQL too when DATABASE_URL is set), its tests of logic beside the code (apps/server/src: no database, so run
// once), and web component tests in jsdom.
//
// Test files run side by side (TEST_WORKERS, 3 by default, even on two cores: most of a server test's time is spent
// waiting for its database, a child server or a timer), each on a database of its own. The files in SERIAL run
// afterwards, one at a time per database (the PGlite and the PostgreSQL serial projects run side by side, one file
// each): they time what they test against the clock (a restart's recovery, a full pool's 200 ms readiness, a
// shutdown's deadline, a pack's time cap) or start servers and databases of their own, and would measure their
// neighbours instead. What they time must therefore hold on a machine that one other such file keeps busy.
import { defineConfig } from 'vitest/config';
import type { TestProjectInlineConfiguration } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const contracts = fileURLToPath(new URL('./packages/contracts/src/index.ts', import.meta.url));
const alias = { '@eta/contracts': contracts };

const SERIAL = [
  'test/cluster-*.test.ts',
  'test/embedded-*.test.ts',
  'test/database-restart.test.ts',
  'test/full-pool.test.ts',
  'test/mail-claims-restart.test.ts',
  'test/graceful-shutdown.test.ts',
  'test/restore.test.ts',
  'test/document-store-faults.test.ts',
  'test/defence-pack.test.ts',
  'test/statement-budgets.test.ts',
  'test/fuzz.test.ts',
  'test/live-desk.test.ts',
];

const workers = Number(process.env.TEST_WORKERS ?? 3);

const serverProject = (
  name: string,
  backend: 'pglite' | 'postgres',
  files: 'parallel' | 'serial',
): TestProjectInlineConfiguration => ({
  resolve: { alias },
  test: {
    name: files === 'serial' ? `${name}-serial` : name,
    root: './apps/server',
    include: files === 'serial' ? SERIAL : ['test/**/*.test.ts'],
    // Restarting on the same data directory is a property of the embedded database only; several server processes
    // on one database, one of them killed (cluster-*), of PostgreSQL only.
    exclude: [
      ...(backend === 'postgres' ? ['test/embedded-*.test.ts'] : ['test/cluster-*.test.ts']),
      ...(files === 'parallel' ? SERIAL : []),
    ],
    environment: 'node',
    env: { TEST_DB: backend },
    globalSetup: ['./test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    ...(files === 'serial' ? { maxWorkers: 1, sequence: { groupOrder: 1 } } : {}),
  },
});

const backends = ['pglite', ...(process.env.DATABASE_URL ? ['postgres'] : [])] as const;

export default defineConfig({
  test: {
    maxWorkers: workers,
    projects: [
      ...backends.map((b) => serverProject(`server-${b}`, b, 'parallel')),
      ...backends.map((b) => serverProject(`server-${b}`, b, 'serial')),
      {
        resolve: { alias },
        test: {
          name: 'server-unit',
          root: './apps/server',
          include: ['src/**/*.test.ts'],
          environment: 'node',
          // A worker pool's job is stopped at its 5 s cap.
          testTimeout: 30_000,
        },
      },
      './apps/web/vitest.config.ts',
    ],
  },
});
