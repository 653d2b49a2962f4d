// Worker threads load compiled JavaScript (lib/workers/worker-pool.ts): the tests run the server from src/, and the
// jobs it sends to its worker pool (defence packs, PDF checks) run from dist/, so dist/ is brought up to date first.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function buildServer(): void {
  const root = fileURLToPath(new URL('../../..', import.meta.url));
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-b', 'apps/server'], {
    cwd: root,
    stdio: 'inherit',
  });
}
