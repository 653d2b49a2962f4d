// `npm start` builds only when something it builds from has changed since the last build: the sources, the
// configuration and the lockfile are hashed by content (checkout times mean nothing) and compared with the stamp
// the last successful build left beside its output. An unchanged checkout starts at once.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const INPUTS = [
  'package-lock.json',
  'tsconfig.base.json',
  'packages/contracts/src',
  'packages/contracts/package.json',
  'packages/contracts/tsconfig.json',
  'apps/server/src',
  'apps/server/package.json',
  'apps/server/tsconfig.json',
  'apps/web/src',
  'apps/web/public',
  'apps/web/scripts',
  'apps/web/index.html',
  'apps/web/portal.html',
  'apps/web/package.json',
  'apps/web/vite.config.ts',
  'apps/web/contracts-alias.ts',
];
const OUTPUTS = ['apps/server/dist/server.js', 'apps/web/dist/index.html', 'apps/web/dist/portal.html'];
const STAMP = path.join(root, 'apps/web/dist/.build-stamp');

function* files(entry) {
  const full = path.join(root, entry);
  if (!existsSync(full)) return;
  if (!statSync(full).isDirectory()) {
    yield entry;
    return;
  }
  for (const name of readdirSync(full).sort()) yield* files(path.join(entry, name));
}

function inputsHash() {
  const hash = createHash('sha256');
  for (const entry of INPUTS) {
    for (const file of files(entry))
      hash
        .update(file)
        .update('\0')
        .update(readFileSync(path.join(root, file)));
  }
  return hash.digest('hex');
}

const current = inputsHash();
const built = OUTPUTS.every((file) => existsSync(path.join(root, file)));
const stamp = existsSync(STAMP) ? readFileSync(STAMP, 'utf8').trim() : '';
if (built && stamp === current) {
  console.log('Build is up to date: starting.');
} else {
  const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  writeFileSync(STAMP, `${current}\n`);
}
