// The pg client of the pool (database.ts): runs each statement under the budget of its async context
// (statement-budget.ts) and cancels it on the server when that budget passes or its request's client goes away.
// A cancel is PostgreSQL's CancelRequest on a connection of its own (what pg's own Client.cancel sends, which is not
// public API): it needs no free pooled connection, exactly when the pool is full.
import net from 'node:net';
import pg from 'pg';
import {
  ClientGoneError,
  currentStatementScope,
  QUERY_CANCELED,
  StatementTimeoutError,
  type ClientPresence,
} from './statement-budget.js';

/** BEGIN, COMMIT, ROLLBACK and savepoints: never refused nor cancelled, so a transaction always ends cleanly. */
const TRANSACTION_CONTROL = /^\s*(begin|start\s+transaction|commit|rollback|savepoint|release)\b/i;
const TRANSACTION_START = /^\s*(begin|start\s+transaction)\b/i;
const COMMIT = /^\s*commit\b/i;
const ROLLBACK_TO_SAVEPOINT = /^\s*rollback\s+to\b/i;
const ROLLBACK = /^\s*rollback\b/i;
/** A ROLLBACK of the whole transaction, not to a savepoint. */
const isWholeRollback = (text: string) => ROLLBACK.test(text) && !ROLLBACK_TO_SAVEPOINT.test(text);

/** The CancelRequest message's code (PostgreSQL protocol, "CancelRequest"). */
const CANCEL_REQUEST_CODE = 80877102;
/** How long a cancel may take to reach the server before it is given up (the statement then ends by its budget). */
const CANCEL_WAIT_MS = 5_000;

/** Whether budget `a` is shorter than `b`, in ms; 0 is none, longer than any. */
const shorter = (a: number, b: number) => a !== 0 && (b === 0 || a < b);

/** The form db/prepared-pool.ts calls: one config object, a promise back. Any other call goes to pg as it is. */
function isStatement(args: unknown[]): args is [pg.QueryConfig] {
  const [config] = args;
  return (
    args.length === 1 &&
    typeof config === 'object' &&
    config !== null &&
    typeof (config as { text?: unknown }).text === 'string' &&
    typeof (config as { submit?: unknown }).submit !== 'function'
  );
}

/**
 * Asks the server to cancel what `client`'s backend is running. Resolves once the server has closed the request's
 * connection, which it does after signalling the backend: a cancel that arrives when the statement has already
 * ended finds the backend idle, where PostgreSQL ignores it, so it can never hit the connection's next statement.
 */
function sendCancelRequest(client: pg.Client): Promise<void> {
  const { processID, secretKey } = client as unknown as { processID?: unknown; secretKey?: unknown };
  if (!Number.isInteger(processID) || !Number.isInteger(secretKey)) return Promise.resolve();
  const packet = Buffer.alloc(16);
  packet.writeInt32BE(16, 0);
  packet.writeInt32BE(CANCEL_REQUEST_CODE, 4);
  packet.writeInt32BE(processID as number, 8);
  packet.writeInt32BE(secretKey as number, 12);
  return new Promise((resolve) => {
    const socket = client.host.startsWith('/')
      ? net.connect(`${client.host}/.s.PGSQL.${client.port}`)
      : net.connect(client.port, client.host);
    socket.setTimeout(CANCEL_WAIT_MS, () => socket.destroy());
    socket.once('connect', () => socket.write(packet));
    socket.on('error', () => {}); // 'close' follows; the statement then ends by its budget on the server
    socket.once('close', () => resolve());
  });
}

type Send = (config: pg.QueryConfig) => Promise<pg.QueryResult>;

/** What a failed statement is to its caller: a cancel we sent for its budget or its client, or the server's timeout. */
function statementFailure(
  err: unknown,
  reason: 'budget' | 'client' | undefined,
  cutAtMs: number | undefined,
  onServerMs: number,
): unknown {
  if ((err as { code?: unknown }).code !== QUERY_CANCELED) return err;
  if (reason === 'client') return new ClientGoneError();
  if (reason === 'budget') return new StatementTimeoutError(cutAtMs);
  if ((err as Error).message.includes('statement timeout')) return new StatementTimeoutError(onServerMs);
  // A cancel nobody sent for this statement: one sent for the statement before it that arrived after that one had
  // ended (see #watch), or an operator's pg_cancel_backend. Nothing of it took effect; it is worth trying again.
  return new StatementTimeoutError();
}

/**
 * A pg.Client class (the pool's `Client` option) whose connections start with `defaultTimeoutMs` as their
 * statement_timeout (a connection option the caller sets) and apply each statement's budget.
 */
export function budgetedClient(defaultTimeoutMs: number): new (config?: string | pg.ClientConfig) => pg.Client {
  return class BudgetedClient extends pg.Client {
    /** This session's statement_timeout as last set; undefined when a rollback may have undone a SET. */
    #sessionTimeoutMs: number | undefined = defaultTimeoutMs;
    /** What it was when the transaction began: a rollback takes it back there. */
    #timeoutAtBegin: number | undefined;
    /** Between a BEGIN and its COMMIT or ROLLBACK. */
    #inTransaction = false;

    constructor(config?: string | pg.ClientConfig) {
      super(config);
      // A connection whose server goes away (a restart's 57P01, a closed socket) emits 'error'. The pool listens
      // only while the connection is idle in it; one checked out, between two statements of a transaction or just
      // after its last, would throw that 'error' at the process and end it (issue 32). Here it is no news: the
      // statement running fails with it, the next one fails as "not queryable", and the pool drops the connection
      // when it comes back.
      this.on('error', () => {});
      const send = this.query.bind(this) as (...args: unknown[]) => unknown;
      this.query = ((...args: unknown[]) =>
        isStatement(args) ? this.#run(args[0], send as Send) : send(...args)) as pg.Client['query'];
    }

    // Every statement of the application passes here, so the common one (the connection's own budget, no SET) costs
    // one promise of its own and no async function (docs/PERFORMANCE.md, run 21).
    #run(config: pg.QueryConfig, send: Send): Promise<pg.QueryResult> {
      if (TRANSACTION_CONTROL.test(config.text)) return this.#control(config, send);
      const scope = currentStatementScope();
      const client = scope?.client;
      if (client?.gone) return Promise.reject(new ClientGoneError());
      const budget = scope?.timeoutMs ?? defaultTimeoutMs;
      // A longer budget than the connection's is the server's to enforce; a shorter one is cut from here, so the
      // statements of a search cost no SET.
      const onServer = shorter(budget, defaultTimeoutMs) ? defaultTimeoutMs : budget;
      const cutAtMs = shorter(budget, onServer) ? budget : undefined;
      if (this.#sessionTimeoutMs === onServer) return this.#watch(config, send, client, cutAtMs, onServer);
      return this.#setThenRun(config, send, client, cutAtMs, onServer);
    }

    /** Gives the connection the statement's longer budget first (one round trip), then runs it. */
    async #setThenRun(
      config: pg.QueryConfig,
      send: Send,
      client: ClientPresence | undefined,
      cutAtMs: number | undefined,
      onServerMs: number,
    ): Promise<pg.QueryResult> {
      this.#sessionTimeoutMs = undefined;
      await send({ text: `SET statement_timeout = ${onServerMs}` }).catch((err: unknown) => {
        throw statementFailure(err, undefined, undefined, onServerMs);
      });
      this.#sessionTimeoutMs = onServerMs;
      if (client?.gone) throw new ClientGoneError();
      return this.#watch(config, send, client, cutAtMs, onServerMs);
    }

    /**
     * The statement's result; cancelled on the server when `cutAtMs` passes or `client` leaves first.
     *
     * A cancel sent as the statement ends may reach the backend after it: the server signals the backend and closes
     * the cancel's connection at once, and a backend slow to get back to reading (a busy machine) finds the signal
     * pending when the next statement arrives, and cancels that one instead (seen once in the soak: "canceling
     * statement due to user request" on the COMMIT after a search's index step). So a statement that ends well after
     * its cancel was sent is followed by `SELECT 1`, which takes the late cancel if one is coming, before the
     * connection runs anything else; inside a transaction a control statement it hits is sent again or ends the
     * transaction (#control), and a statement it hits fails as a timeout (statementFailure).
     */
    #watch(
      config: pg.QueryConfig,
      send: Send,
      client: ClientPresence | undefined,
      cutAtMs: number | undefined,
      onServerMs: number,
    ): Promise<pg.QueryResult> {
      const pending = send(config);
      let reason: 'budget' | 'client' | undefined;
      let cancelling: Promise<void> | undefined;
      const cancel = (why: 'budget' | 'client') => {
        if (reason) return;
        reason = why;
        cancelling = sendCancelRequest(this);
      };
      const timer = cutAtMs === undefined ? undefined : setTimeout(() => cancel('budget'), cutAtMs);
      const unwatch = client?.watch(() => cancel('client'));
      // The connection goes back to the pool only once a cancel sent for this statement can no longer reach it.
      const settled = () => {
        clearTimeout(timer);
        unwatch?.();
        return cancelling;
      };
      return pending.then(
        (result) => {
          const waiting = settled();
          if (!waiting) return result;
          return waiting.then(() => (this.#inTransaction ? result : this.#takeLateCancel(send).then(() => result)));
        },
        (err: unknown) => {
          const waiting = settled();
          const failure = statementFailure(err, reason, cutAtMs, onServerMs);
          if (!waiting) throw failure;
          // Failed by something else than the cancel, which may then still come.
          const tookCancel = (err as { code?: unknown }).code === QUERY_CANCELED || this.#inTransaction;
          return waiting
            .then(() => (tookCancel ? undefined : this.#takeLateCancel(send)))
            .then(() => {
              throw failure;
            });
        },
      );
    }

    /** A statement that takes a late cancel, if one is coming, so that nothing else does (#watch). */
    async #takeLateCancel(send: Send): Promise<void> {
      await send({ text: 'SELECT 1' }).catch((err: unknown) => {
        if ((err as { code?: unknown }).code !== QUERY_CANCELED) throw err;
      });
    }

    /**
     * Keeps track of what a transaction's end does to a statement_timeout SET inside it, and of a late cancel (#watch)
     * that hits one: nothing cancels these on purpose. A BEGIN or a ROLLBACK it hit did nothing and is sent again; a
     * COMMIT it hit committed nothing, so the transaction is rolled back and the caller told to try again; a savepoint's
     * statement it hit has failed the transaction, which the caller rolls back.
     */
    async #control(config: pg.QueryConfig, send: Send): Promise<pg.QueryResult> {
      try {
        const result = await send(config).catch(async (err: unknown) => {
          if ((err as { code?: unknown }).code !== QUERY_CANCELED) throw err;
          if (TRANSACTION_START.test(config.text) || isWholeRollback(config.text)) return send(config);
          if (COMMIT.test(config.text)) await send({ text: 'ROLLBACK' });
          throw new StatementTimeoutError();
        });
        if (TRANSACTION_START.test(config.text)) {
          this.#timeoutAtBegin = this.#sessionTimeoutMs;
          this.#inTransaction = true;
        } else if (ROLLBACK_TO_SAVEPOINT.test(config.text)) this.#sessionTimeoutMs = undefined;
        else if (ROLLBACK.test(config.text) || (COMMIT.test(config.text) && result.command === 'ROLLBACK')) {
          this.#sessionTimeoutMs = this.#timeoutAtBegin;
          this.#timeoutAtBegin = undefined;
          this.#inTransaction = false;
        } else if (COMMIT.test(config.text)) {
          this.#timeoutAtBegin = undefined;
          this.#inTransaction = false;
        }
        return result;
      } catch (err) {
        this.#sessionTimeoutMs = undefined;
        if (COMMIT.test(config.text) || isWholeRollback(config.text)) this.#inTransaction = false;
        throw err;
      }
    }
  };
}
