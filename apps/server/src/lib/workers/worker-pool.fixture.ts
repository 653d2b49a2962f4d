// Jobs for worker-pool.test.ts: one that answers, one that keeps its thread busy, one that keeps taking memory.
import { isMainThread } from 'node:worker_threads';

export async function echo(s: string): Promise<string> {
  return `${s} from ${isMainThread ? 'the main thread' : 'a worker thread'}`;
}

export async function spin(ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

export async function hoard(mb: number): Promise<number> {
  const kept: number[][] = [];
  for (let i = 0; i < mb; i += 1) kept.push(new Array<number>(2 ** 17).fill(i + 0.5));
  return kept.length;
}
