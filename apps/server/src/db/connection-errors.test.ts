import { describe, expect, it } from 'vitest';
import {
  connectionFault,
  DatabaseBusyError,
  DatabaseUnavailableError,
  isDatabaseUnavailable,
} from './connection-errors.js';

/** An error as pg gives it: a message and, from the server or the socket, a code. */
const pgError = (message: string, code?: string) => Object.assign(new Error(message), code ? { code } : {});

describe('connectionFault: how pg says the database is away, as one typed error', () => {
  it.each([
    ['a refused connection while it restarts', pgError('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['a restart telling every session', pgError('terminating connection due to administrator command', '57P01')],
    [
      'a crash of another backend',
      pgError('terminating connection because of crash of another server process', '57P02'),
    ],
    ['a server starting up or shutting down', pgError('the database system is starting up', '57P03')],
    ['a socket closed under a statement', pgError('Connection terminated unexpectedly')],
    ['a connection already broken', pgError('Client has encountered a connection error and is not queryable')],
    ['a connection that took too long to open', pgError('Connection terminated due to connection timeout')],
    ['a connection exception (class 08)', pgError('could not receive data from client', '08006')],
    [
      'a name with two addresses, both refused',
      new AggregateError([pgError('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED'), pgError('x', 'ECONNREFUSED')]),
    ],
  ])('%s: unavailable, 503 with Retry-After', (_case, err) => {
    const fault = connectionFault(err);
    expect(fault).toBeInstanceOf(DatabaseUnavailableError);
    expect(fault).toMatchObject({ code: 'DATABASE_UNAVAILABLE', httpStatus: 503, retryAfterSeconds: 2 });
    expect(isDatabaseUnavailable(err)).toBe(true);
  });

  it.each([
    ['the pool’s wait passed', pgError('timeout exceeded when trying to connect')],
    ['no connection slot left on the server', pgError('sorry, too many clients already', '53300')],
  ])('%s: busy, 503 with Retry-After', (_case, err) => {
    expect(connectionFault(err)).toBeInstanceOf(DatabaseBusyError);
    expect(connectionFault(err)).toMatchObject({ code: 'DATABASE_BUSY', httpStatus: 503, retryAfterSeconds: 1 });
    expect(isDatabaseUnavailable(err)).toBe(false);
  });

  it.each([
    ['a unique violation', pgError('duplicate key value violates unique constraint', '23505')],
    ['a statement cancelled by its budget', pgError('canceling statement due to statement timeout', '57014')],
    ['a bug', new TypeError('cannot read properties of undefined')],
    ['not an error at all', 'text'],
  ])('%s: not a connection fault', (_case, err) => {
    expect(connectionFault(err)).toBeUndefined();
  });
});
