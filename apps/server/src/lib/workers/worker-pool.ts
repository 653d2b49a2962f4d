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

export class WorkerPool {
  private readonly pool: Piscina;

  constructor(private readonly limits: WorkerLimits = DEFAULT_WORKER_LIMITS) {
    this.pool = new Piscina({
      filename: runnableFile(new URL('./worker-entry.js', import.meta.url)),
      minThreads: 0,
      maxThreads: limits.threads,
      // Threads start on demand and stay a while, so a busy desk keeps one ready and an idle one holds no memory.
      idleTimeout: 10 * 60_000,
      resourceLimits: { maxOldGenerationSizeMb: limits.maxMemoryMb, maxYoungGenerationSizeMb: 64 },
    });
  }

  /** `name` exported by the module at `url`, run in a worker thread. */
  function<F extends (...args: never[]) => Promise<unknown>>(url: URL, name: string): F {
    const module = runnableFile(url);
    return (async (...args: unknown[]) => {
      // The time cap counts from when the job starts running: not its wait in the queue behind other jobs, nor a
      // new thread's start (loading pdf-lib and pdfkit takes ~1.4 s), which are not the job's doing.
      const { port1: started, port2 } = new MessageChannel();
      const abort = new AbortController();
      let timer: NodeJS.Timeout | undefined;
      started.once('message', () => {
        timer = setTimeout(() => abort.abort(), this.limits.timeoutMs);
      });
      try {
        return await this.pool.run(
          { module, name, args, started: port2 },
          { signal: abort.signal, transferList: [port2] },
        );
      } catch (err) {
        throw this.limitError(err) ?? err;
      } finally {
        clearTimeout(timer);
        started.close();
      }
    }) as unknown as F;
  }

  private limitError(err: unknown): WorkerLimitError | undefined {
    const { name, code } = err as { name?: string; code?: string };
    if (name === 'AbortError') {
      return new WorkerLimitError('time', `took longer than ${this.limits.timeoutMs / 1000} s`);
    }
    if (code === 'ERR_WORKER_OUT_OF_MEMORY') {
      return new WorkerLimitError('memory', `needed more than ${this.limits.maxMemoryMb} MB of memory`);
    }
    return undefined;
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
