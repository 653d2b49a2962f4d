// A PostgreSQL server of the test's own (issue 32): initdb into a temporary folder, its own port and socket folder,
// started and stopped with pg_ctl, so a test may stop, restart or kill it without disturbing any other database on
// the machine. PostgreSQL refuses to run as root: run as root (CI, this machine), it runs as the `postgres` user.
// Tests that need it run once per `npm test` (ownPostgresRuns) and are skipped where the binaries are missing.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './built-server.js';

/** The folder of initdb and pg_ctl: PG_BINDIR, else the newest /usr/lib/postgresql/<version>/bin, else none. */
function findBinaries(): string | undefined {
  const candidates = [process.env.PG_BINDIR];
  const debianRoot = '/usr/lib/postgresql';
  if (existsSync(debianRoot)) {
    const versions = readdirSync(debianRoot)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => path.join(debianRoot, v, 'bin')));
  }
  return candidates.find((dir) => dir && existsSync(path.join(dir, 'initdb')) && existsSync(path.join(dir, 'pg_ctl')));
}

/** The user the server runs as when this process is root (PostgreSQL will not run as root), with its ids. */
function serverUser(): { name: string; uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const found = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const groups = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (found.status !== 0 || groups.status !== 0) return undefined;
  return { name: 'postgres', uid: Number(found.stdout.trim()), gid: Number(groups.stdout.trim()) };
}

const BIN = findBinaries();
const USER = serverUser();

/** Whether a PostgreSQL of a test's own can be started here: its binaries, and a user to run it as when root. */
export const ownPostgresAvailable = BIN !== undefined && (process.getuid?.() !== 0 || USER !== undefined);

/**
 * Whether tests on a PostgreSQL of their own run in this test project: they do not depend on the project's database,
 * so they run once, in the PostgreSQL project when there is one (DATABASE_URL set) and in the PGlite one otherwise.
 */
export const ownPostgresRuns =
  ownPostgresAvailable && (process.env.TEST_DB === 'postgres' || process.env.DATABASE_URL === undefined);

export interface OwnPostgres {
  port: number;
  /** The address of a database on it (`postgres` by default). */
  url(database?: string): string;
  /** A new empty database; its address. */
  createDatabase(name: string): Promise<string>;
  /** Stops the server: `fast` disconnects every client with 57P01 (as a restart does); `immediate` is a crash. */
  stop(mode?: 'fast' | 'immediate'): void;
  start(): void;
  /** Stops and removes the server and its folder. */
  destroy(): void;
}

/** Runs a PostgreSQL program as the server's user; throws with its output when it fails. */
function run(program: string, args: string[]): string {
  const [command, argv] = USER
    ? ['runuser', ['-u', USER.name, '--', path.join(BIN!, program), ...args]]
    : [path.join(BIN!, program), args];
  try {
    return execFileSync(command, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: string; stderr?: string };
    throw new Error(`${program} ${args.join(' ')} failed:\n${stdout ?? ''}${stderr ?? ''}`, { cause: err });
  }
}

/** Creates, configures and starts a PostgreSQL server in a new temporary folder; `destroy()` removes it. */
export async function startOwnPostgres(): Promise<OwnPostgres> {
  if (!ownPostgresAvailable) throw new Error('no PostgreSQL binaries here (see ownPostgresAvailable)');
  const root = mkdtempSync(path.join(os.tmpdir(), 'eta-own-pg-'));
  const dataDir = path.join(root, 'data');
  const log = path.join(root, 'server.log');
  if (USER) {
    chownSync(root, USER.uid, USER.gid);
    chmodSync(root, 0o700);
  }
  const port = await freePort();
  run('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  // A small, fast server listening on loopback only, with its socket in its own folder (never /var/run/postgresql).
  writeFileSync(
    path.join(dataDir, 'postgresql.auto.conf'),
    [
      `port = ${port}`,
      `listen_addresses = '127.0.0.1'`,
      `unix_socket_directories = '${root}'`,
      'max_connections = 60',
      'shared_buffers = 32MB',
      'fsync = off',
      'synchronous_commit = off',
      'full_page_writes = off',
      '',
    ].join('\n'),
  );
  if (USER) chownSync(path.join(dataDir, 'postgresql.auto.conf'), USER.uid, USER.gid);

  let running = false;
  const start = () => {
    run('pg_ctl', ['-D', dataDir, '-l', log, '-w', '-t', '60', 'start']);
    running = true;
  };
  const stop = (mode: 'fast' | 'immediate' = 'fast') => {
    run('pg_ctl', ['-D', dataDir, '-m', mode, '-w', '-t', '60', 'stop']);
    running = false;
  };
  const destroy = () => {
    process.removeListener('exit', destroy);
    if (running) {
      try {
        stop('immediate');
      } catch {
        // Already gone: the folder goes all the same.
      }
    }
    rmSync(root, { recursive: true, force: true });
  };
  // A test process that ends without its clean-up (a crash, a timeout) must not leave a server running.
  process.once('exit', destroy);
  start();

  const url = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;
  return {
    port,
    url,
    createDatabase: async (name) => {
      const client = new pg.Client({ connectionString: url() });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return url(name);
    },
    stop,
    start,
    destroy,
  };
}
