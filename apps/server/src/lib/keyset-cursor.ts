// A page cursor over keys (at, id), newest first: the last row's time exactly as PostgreSQL stores it (microseconds,
// as text, since a JS Date keeps milliseconds only) and its id, base64url. Used by Activity and the access records.
import { AppError } from './errors.js';

/** The last row of a page: `at` as stored, as text, and its id. */
export interface KeysetKey {
  at: string;
  id: number;
}

const KEY = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)\|(\d{1,18})$/;

export const encodeCursor = (key: KeysetKey): string => Buffer.from(`${key.at}|${key.id}`).toString('base64url');

/** A cursor this server made, else a 400 saying the list should start again (`what`: "the activity list"). */
export function decodeCursor(cursor: string, what: string): KeysetKey {
  const match = KEY.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match) {
    throw new AppError('VALIDATION_FAILED', `This page of ${what} is not valid any more; start again from the newest.`);
  }
  return { at: match[1]!, id: Number(match[2]) };
}
