// Once per browser-test run: the data folder each file's default server starts on a copy of (harness.ts).
import { rm } from 'node:fs/promises';
import type { TestProject } from 'vitest/node';
import { prepareDataDir } from './server-process.js';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const prepared = await prepareDataDir();
  project.provide('preparedDataDir', prepared);
  return () => rm(prepared.dataDir, { recursive: true, force: true });
}
