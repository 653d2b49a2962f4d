// A stopping server exits whatever holds it (issue 32). SHUTDOWN_TIMEOUT_MS and SHUTDOWN_GRACE_MS after the signal,
// the process writes one line naming what it was still waiting for (the step, its open handles, the worker pool's
// jobs, its connections) and exits 1. That needs the main thread; when it is blocked (a loop that never yields, an
// exit handler flushing the log into a pipe nobody reads: seen keeping five servers alive for 45 minutes), a watchdog
// thread of its own (shutdown-watchdog.ts) writes the last account the main thread gave and kills the process
// WATCHDOG_GRACE_MS later. Both lines go straight to stderr with a synchronous write: the log's own asynchronous
// destination may be what holds the process.
import { writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { Worker } from 'node:worker_threads';
import { runnableFile } from './workers/worker-pool.js';

/** After SHUTDOWN_TIMEOUT_MS: the outbox worker's 3 s hand-back, the event bus and the database pool closing. */
export const SHUTDOWN_GRACE_MS = 5_000;
/** After that: the main thread had its chance to exit. */
export const WATCHDOG_GRACE_MS = 3_000;
/** How often the main thread tells the watchdog where it is. */
const BEAT_MS = 250;
/** Room for the main thread's last account, as JSON. */
const ACCOUNT_BYTES = 16 * 1024;

/** Where a stopping process is, and what holds it: what both lines say. */
export interface ShutdownAccount {
  /** The step it is at ('draining requests', 'closing the database pool', 'exiting with code 0'). */
  step: string;
  stepForMs: number;
  /** Open handles keeping the event loop alive, by kind (process.getActiveResourcesInfo()). */
  handles: Record<string, number>;
  /** What the server itself holds, in words: the worker pool's jobs, its connections. */
  holding: Record<string, string>;
}

/** What the main thread shares with the watchdog: [ms since the signal of its last beat, bytes of its account]. */
export interface WatchdogShared {
  beat: Int32Array;
  account: Uint8Array;
}

/** One line in the log's JSON shape (pino's fields), written now, whatever the log's destination is doing. */
export function writeFatalLine(fields: Record<string, unknown>, msg: string): void {
  const line = JSON.stringify({ level: 60, time: Date.now(), pid: process.pid, hostname: hostname(), ...fields, msg });
  try {
    writeSync(2, `${line}\n`);
  } catch {
    // stderr is full or gone: the exit that follows still happens.
  }
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/** The account in words: `closing the database pool (for 5.2 s); open handles: TCPSocketWrap ×3; …`. */
export function describeAccount(account: ShutdownAccount): string {
  const handles = Object.entries(account.handles).map(([kind, n]) => `${kind} ×${n}`);
  return [
    `${account.step} (for ${seconds(account.stepForMs)})`,
    `open handles: ${handles.join(', ') || 'none'}`,
    ...Object.entries(account.holding).map(([what, value]) => `${what}: ${value}`),
  ].join('; ');
}

export interface ShutdownDeadlineOptions {
  signal: string;
  /** SHUTDOWN_TIMEOUT_MS: the drain's own bound. */
  timeoutMs: number;
  /** What the server holds besides its handles, in words; read on each beat (only what it holds: none, none). */
  holding: () => Record<string, string>;
}

export class ShutdownDeadline {
  private readonly startedAt = Date.now();
  private readonly shared: WatchdogShared = {
    beat: new Int32Array(new SharedArrayBuffer(8)),
    account: new Uint8Array(new SharedArrayBuffer(ACCOUNT_BYTES)),
  };
  private current = { step: 'starting', at: 0 };
  private readonly exitAfterMs: number;

  /** Arms both deadlines from now (the signal). */
  constructor(private readonly options: ShutdownDeadlineOptions) {
    this.exitAfterMs = options.timeoutMs + SHUTDOWN_GRACE_MS;
    this.beat();
    // Neither keeps the process alive: they only bound it.
    setInterval(() => this.beat(), BEAT_MS).unref();
    setTimeout(() => this.giveUp(), this.exitAfterMs).unref();
    try {
      const watchdog = new Worker(runnableFile(new URL('./shutdown-watchdog.js', import.meta.url)), {
        workerData: {
          ...this.shared,
          startedAt: this.startedAt,
          killAfterMs: this.exitAfterMs + WATCHDOG_GRACE_MS,
          signal: options.signal,
        },
        stdout: false,
        stderr: false,
      });
      watchdog.unref();
      watchdog.on('error', (err) => writeFatalLine({ err: String(err) }, 'the shutdown watchdog failed'));
    } catch (err) {
      writeFatalLine({ err: String(err) }, 'the shutdown watchdog could not start');
    }
  }

  /** What the shutdown is doing now: named in the line if it is still doing it at the deadline. */
  step(name: string): void {
    this.current = { step: name, at: Date.now() };
    this.beat();
  }

  /** Exits with `code`; the watchdog stays armed until the process is gone (an exit handler may hang). */
  exit(code: number): never {
    this.step(`exiting with code ${code}`);
    process.exit(code);
  }

  account(): ShutdownAccount {
    const handles: Record<string, number> = {};
    for (const kind of process.getActiveResourcesInfo()) handles[kind] = (handles[kind] ?? 0) + 1;
    return {
      step: this.current.step,
      stepForMs: Date.now() - (this.current.at || this.startedAt),
      handles,
      holding: this.options.holding(),
    };
  }

  private beat(): void {
    const text = new TextEncoder().encode(JSON.stringify(this.account()));
    // An account too long for the room is cut; the watchdog then says only how long ago the main thread ran.
    const length = text.length <= ACCOUNT_BYTES ? text.length : 0;
    this.shared.account.set(text.subarray(0, length));
    Atomics.store(this.shared.beat, 1, length);
    Atomics.store(this.shared.beat, 0, Date.now() - this.startedAt);
  }

  private giveUp(): void {
    const account = this.account();
    writeFatalLine(
      { signal: this.options.signal, timeoutMs: this.options.timeoutMs, ...account, exitCode: 1 },
      `shutdown did not finish ${seconds(this.exitAfterMs)} after ${this.options.signal} ` +
        `(SHUTDOWN_TIMEOUT_MS ${this.options.timeoutMs} + ${SHUTDOWN_GRACE_MS}): exiting with code 1. ` +
        `Still waiting for: ${describeAccount(account)}`,
    );
    this.exit(1);
  }
}
