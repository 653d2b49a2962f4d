// What a worker thread of the pool runs (worker-pool.ts): the named export of a module, with the job's arguments.
// `started` is told once the module is loaded: the job's time cap counts from then.
import { pathToFileURL } from 'node:url';
import type { MessagePort } from 'node:worker_threads';

type Job = (...args: unknown[]) => Promise<unknown>;

export default async function runJob(job: {
  module: string;
  name: string;
  args: unknown[];
  started: MessagePort;
}): Promise<unknown> {
  const loaded = (await import(pathToFileURL(job.module).href)) as Record<string, Job | undefined>;
  const fn = loaded[job.name];
  if (typeof fn !== 'function') throw new Error(`${job.module} exports no function ${job.name}`);
  job.started.postMessage('started');
  job.started.close();
  return fn(...job.args);
}
