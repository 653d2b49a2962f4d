// `npm start` (tools/build-if-stale.mjs) builds only when something it builds from has changed: an unchanged
// checkout starts without rebuilding (issue 11). The script runs here in a scratch tree whose `npm run build`
// only writes the outputs and counts its runs; it has nothing to do with the database, so it runs once.
import { spawnSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBackend } from './helpers/test-database.js';

const script = fileURLToPath(new URL('../../../tools/build-if-stale.mjs', import.meta.url));

describe.runIf(testBackend() === 'pglite')('npm start', () => {
  let root: string;
  const source = () => path.join(root, 'apps/server/src/server.ts');
  const builds = async () => (await readFile(path.join(root, 'builds.log'), 'utf8').catch(() => '')).length;
  const start = () => {
    const run = spawnSync('node', ['tools/build-if-stale.mjs'], { cwd: root, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    return run.stdout;
  };

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'eta-start-'));
    await mkdir(path.join(root, 'tools'));
    await copyFile(script, path.join(root, 'tools/build-if-stale.mjs'));
    await mkdir(path.dirname(source()), { recursive: true });
    await writeFile(source(), 'export {};\n');
    // A build that writes what the script checks for, and one character per run.
    await writeFile(
      path.join(root, 'build.mjs'),
      `import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
       for (const dir of ['apps/server/dist', 'apps/web/dist']) mkdirSync(dir, { recursive: true });
       for (const file of ['apps/server/dist/server.js', 'apps/web/dist/index.html', 'apps/web/dist/portal.html'])
         writeFileSync(file, '');
       appendFileSync('builds.log', 'x');`,
    );
    await writeFile(
      path.join(root, 'package.json'),
      JSON.stringify({ name: 'scratch', private: true, scripts: { build: 'node build.mjs' } }),
    );
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('builds a fresh checkout, starts an unchanged one at once, and builds again only when a source changes', async () => {
    start();
    expect(await builds()).toBe(1);

    expect(start()).toContain('Build is up to date');
    expect(await builds()).toBe(1);

    // A new modification time alone (a fresh checkout) is no change.
    const later = new Date(Date.now() + 60_000);
    await utimes(source(), later, later);
    expect(start()).toContain('Build is up to date');
    expect(await builds()).toBe(1);

    await writeFile(source(), 'export const changed = true;\n');
    expect(start()).not.toContain('Build is up to date');
    expect(await builds()).toBe(2);
    expect(start()).toContain('Build is up to date');
    expect(await builds()).toBe(2);
  });
});
