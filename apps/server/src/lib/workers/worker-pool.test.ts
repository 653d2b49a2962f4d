// The pool's caps as a caller meets them: a job past its time or memory is stopped with a WorkerLimitError that
// says which, and the pool goes on serving the next job.
import { describe, expect, it } from 'vitest';
import { WorkerLimitError, WorkerPool, workerPoolActivity } from './worker-pool.js';

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

  it('says which jobs run and how many wait, as a stopping server names what holds it (issue 32)', async () => {
    const pool = new WorkerPool({ timeoutMs: 5_000, maxMemoryMb: 64, threads: 1 });
    try {
      const spin = pool.function<(ms: number) => Promise<void>>(jobs, 'spin');
      expect(pool.activity()).toEqual({ threads: 0, running: [], waiting: 0 });
      const spun = [spin(1_500), spin(10)];
      await expect.poll(() => pool.activity().running.length, { timeout: 5_000 }).toBe(1);
      expect(pool.activity()).toEqual({
        threads: 1,
        running: [{ job: 'spin', seconds: expect.any(Number) }],
        waiting: 1,
      });
      expect(workerPoolActivity().flatMap((p) => p.running.map((r) => r.job))).toEqual(['spin']);
      await Promise.all(spun);
      expect(pool.activity()).toMatchObject({ running: [], waiting: 0 });
      expect(workerPoolActivity()).toEqual([]);
    } finally {
      await pool.close();
    }
  });
});
