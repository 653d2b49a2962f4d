// Work that can take seconds or much memory — a defence pack with an untrusted PDF in it, checking an uploaded
// PDF — runs off the event loop in worker threads (piscina), each job with a time and a memory cap, so that no one
// document can delay other requests or grow the process (issue 22). A job is an exported async function of a
// module, called with structured-clonable arguments: `pool.function(url, name)` gives a function that looks like
// any other async call.
import { existsSync } from 'node:fs';
import { MessageChannel } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';

export interface WorkerLimits {
  /** A job still running after this is stopped (its thread ends). */
  timeoutMs: number;
  /** A job's thread is ended when its heap would grow past this. */
  maxMemoryMb: number;
  /** Threads at most; one core is left to the event loop. */
  threads: number;
}

export const DEFAULT_WORKER_LIMITS: WorkerLimits = {
  timeoutMs: 20_000,
  maxMemoryMb: 512,
  threads: Math.max(1, availableParallelism() - 1),
};

/** A job went past its time or memory cap; the message says which, in words for a person. */
export class WorkerLimitError extends Error {
  constructor(
    readonly limit: 'time' | 'memory',
    message: string,
  ) {
    super(message);
  }
}

/**
 * The file a worker thread loads for a module. Under the test runner the code runs from src/ as TypeScript, which a
 * worker thread cannot load; the compiled twin in dist/ is used instead (the test setup builds it).
 */
export function runnableFile(url: URL): string {
  const file = fileURLToPath(url);
  if (existsSync(file)) return file;
  const compiled = file.replace(/([/\\])src([/\\])(?!.*[/\\]src[/\\])/, '$1dist$2').replace(/\.ts$/, '.js');
  if (existsSync(compiled)) return compiled;
  throw new Error(`${file} does not exist: build the server first (npm run build:server).`);
}

/** What a pool is doing, for a stopping server's account of what holds it (lib/shutdown-deadline.ts). */
export interface WorkerPoolActivity {
  threads: number;
  /** Jobs running now: the function's name and how long it has run. */
  running: { job: string; seconds: number }[];
  /** Jobs waiting for a thread, or for their module to load. */
  waiting: number;
}

/** Every pool not closed yet in this process: the jobs they run belong to the process, as its handles do. */
const openPools = new Set<WorkerPool>();

/** What each open pool of the process is doing (none when no pool has work). */
export function workerPoolActivity(): WorkerPoolActivity[] {
  return [...openPools].map((pool) => pool.activity()).filter((a) => a.running.length > 0 || a.waiting > 0);
}

export class WorkerPool {
  private readonly pool: Piscina;
  /** Jobs called and not finished: when each started running (null while it waits). */
  private readonly jobs = new Set<{ name: string; since: number | null }>();

  constructor(private readonly limits: WorkerLimits = DEFAULT_WORKER_LIMITS) {
    openPools.add(this);
    this.pool = new Piscina({
      filename: runnableFile(new URL('./worker-entry.js', import.meta.url)),
      minThreads: 0,
      maxThreads: limits.threads,
      // Threads start on demand and stay a while, so a busy desk keeps one ready and an idle one holds no memory.
      idleTimeout: 10 * 60_000,
      resourceLimits: { maxOldGenerationSizeMb: limits.maxMemoryMb, maxYoungGenerationSizeMb: 64 },
    });
  }

  /**
   * `name` exported by the module at `url`, run in a worker thread. `timeoutMs` overrides the pool's time cap for a
   * job whose input is the desk's own (no untrusted document in it).
   */
  function<F extends (...args: never[]) => Promise<unknown>>(
    url: URL,
    name: string,
    { timeoutMs = this.limits.timeoutMs }: { timeoutMs?: number } = {},
  ): F {
    const module = runnableFile(url);
    return (async (...args: unknown[]) => {
      // The time cap counts from when the job starts running: not its wait in the queue behind other jobs, nor a
      // new thread's start (loading pdf-lib and pdfkit takes ~1.4 s), which are not the job's doing.
      const { port1: started, port2 } = new MessageChannel();
      const abort = new AbortController();
      const job = { name, since: null as number | null };
      this.jobs.add(job);
      let timer: NodeJS.Timeout | undefined;
      started.once('message', () => {
        job.since = Date.now();
        timer = setTimeout(() => abort.abort(), timeoutMs);
      });
      try {
        return await this.pool.run(
          { module, name, args, started: port2 },
          { signal: abort.signal, transferList: [port2] },
        );
      } catch (err) {
        throw this.limitError(err, timeoutMs) ?? err;
      } finally {
        clearTimeout(timer);
        started.close();
        this.jobs.delete(job);
      }
    }) as unknown as F;
  }

  private limitError(err: unknown, timeoutMs: number): WorkerLimitError | undefined {
    const { name, code } = err as { name?: string; code?: string };
    if (name === 'AbortError') {
      return new WorkerLimitError('time', `took longer than ${timeoutMs / 1000} s`);
    }
    if (code === 'ERR_WORKER_OUT_OF_MEMORY') {
      return new WorkerLimitError('memory', `needed more than ${this.limits.maxMemoryMb} MB of memory`);
    }
    return undefined;
  }

  activity(): WorkerPoolActivity {
    const now = Date.now();
    const jobs = [...this.jobs];
    return {
      threads: this.pool.threads.length,
      running: jobs
        .filter((j) => j.since !== null)
        .map((j) => ({ job: j.name, seconds: Math.round((now - j.since!) / 100) / 10 })),
      waiting: jobs.filter((j) => j.since === null).length,
    };
  }

  async close(): Promise<void> {
    openPools.delete(this);
    await this.pool.destroy();
  }
}
