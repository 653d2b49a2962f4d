// The CLI import's work (cli/intake-import.ts): a file of applications, one JSON object a line, fed one by one
// through the intake service as orders of one landing site. Each line's idempotency key is the file's SHA-256
// and the line number, so the same file imported again makes no second order (within the keys' 72 hours). Lines
// that are refused are written to the error file as { line, code, message, errors }.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { ErrorCode } from '@eta/contracts';
import { AppError } from '../../lib/errors.js';
import type { IntakeService } from './intake.service.js';

const DATABASE_FAULTS = new Set<ErrorCode>(['DATABASE_UNAVAILABLE', 'DATABASE_BUSY', 'DATABASE_TIMEOUT']);

export interface ImportTally {
  /** Lines read (blank ones included). */
  lines: number;
  created: number;
  /** Lines whose order an earlier import of the same file made. */
  existing: number;
  refused: number;
}

export interface ImportOptions {
  file: string;
  site: string;
  /** Where refused lines go; written only when a line is refused. */
  errorsFile: string;
  /** Called every `progressEvery` lines and at the end. */
  onProgress?: (tally: ImportTally) => void;
  progressEvery?: number;
}

export async function importApplications(intake: IntakeService, opts: ImportOptions): Promise<ImportTally> {
  const fileHash = createHash('sha256')
    .update(await readFile(opts.file))
    .digest('hex')
    .slice(0, 32);
  const caller = { site: opts.site, keyId: null, actor: `Import ${path.basename(opts.file)}` };
  const tally: ImportTally = { lines: 0, created: 0, existing: 0, refused: 0 };
  const refusals: string[] = [];
  const every = opts.progressEvery ?? 100;
  for await (const text of createInterface({ input: createReadStream(opts.file), crlfDelay: Infinity })) {
    tally.lines += 1;
    const line = tally.lines;
    if (text.trim()) {
      try {
        const body: unknown = JSON.parse(text);
        const { created } = await intake.createOrder(caller, `import:${fileHash}:${line}`, body, 'local import');
        if (created) tally.created += 1;
        else tally.existing += 1;
      } catch (err) {
        // A refusal is the line's own fault; a database that is away, busy or too slow stops the import, which is
        // safe to run again.
        const refusal =
          err instanceof AppError && !DATABASE_FAULTS.has(err.code)
            ? { line, code: err.code, message: err.message, ...(err.issues ? { errors: err.issues } : {}) }
            : err instanceof SyntaxError
              ? { line, code: 'VALIDATION_FAILED', message: `This line is not JSON: ${err.message}` }
              : undefined;
        if (!refusal) throw err;
        tally.refused += 1;
        refusals.push(JSON.stringify(refusal));
      }
    }
    if (line % every === 0) opts.onProgress?.(tally);
  }
  opts.onProgress?.(tally);
  if (refusals.length > 0) await writeFile(opts.errorsFile, `${refusals.join('\n')}\n`);
  return tally;
}
