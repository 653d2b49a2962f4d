// The pool's caps as a caller meets them: a job past its time or memory is stopped with a WorkerLimitError that
// says which, and the pool goes on serving the next job.
import { describe, expect, it } from 'vitest';
import { WorkerLimitError, WorkerPool } from './worker-pool.js';

const jobs = new URL('./worker-pool.fixture.js', import.meta.url);

describe('WorkerPool', () => {
  it('runs a job in a worker thread, stops one past its time or memory, and serves the next', async () => {
    const pool = new WorkerPool({ timeoutMs: 5_000, maxMemoryMb: 64, threads: 1 });
    try {
      const echo = pool.function<(s: string) => Promise<string>>(jobs, 'echo');
      const spin = pool.function<(ms: number) => Promise<void>>(jobs, 'spin');
      const hoard = pool.function<(mb: number) => Promise<number>>(jobs, 'hoard');
      expect(await echo('hello')).toBe('hello from a worker thread');
      await expect(spin(60_000)).rejects.toEqual(new WorkerLimitError('time', 'took longer than 5 s'));
      await expect(hoard(1_000)).rejects.toEqual(new WorkerLimitError('memory', 'needed more than 64 MB of memory'));
      expect(await echo('again')).toBe('again from a worker thread');
    } finally {
      await pool.close();
    }
  });
});
