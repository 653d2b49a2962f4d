// Statements built once per shape (docs/PERFORMANCE.md, run 28). Kysely builds a query as a tree of frozen nodes and
// compiles it to SQL at every call: for a search's five statements 1.2 ms of the server's one thread, a fifth of a
// search's time there; built once, a list page costs that thread 25-35 % less. A hot query's SQL text depends on a
// few things (the queue, which whole values a search text can be, a page's size) and its values are parameters: so it
// is compiled once per shape with a named slot in place of each value, and each call puts its values into the slots.
import { CompiledQuery, type Compilable, type QueryExecutorProvider, type QueryResult, type RawBuilder } from 'kysely';

/** A value's place in a statement built for its shape: a parameter that each call fills from its own values. */
class Slot {
  constructor(readonly name: string) {}
}

/** The values a statement is run with, by name; its build reads them, and only them, through `v`. */
type Values = Record<string, unknown>;

/**
 * The statement's values as its build reads them: real values, or (when the shape is built for the cache) each
 * replaced by its slot, typed as the value it stands for.
 */
const slotsFor = <V extends Values>(values: V): V =>
  Object.fromEntries(Object.keys(values).map((name) => [name, new Slot(name)])) as V;

/**
 * At most this many shapes per statement are kept; a shape past them is built at each call as before. The shapes
 * of a statement are few (queues x a few page sizes x the kinds of a search text), but a page size comes from the
 * request, and memory must not grow with what requests send.
 */
export const MAX_SHAPES = 200;

/**
 * Under the test runner each call is also built with its own values and compared with the cached shape filled in:
 * a value the build read from elsewhere than `v`, or a shape key that leaves out something the SQL depends on, fails
 * the test that makes the call instead of running another call's statement.
 */
const VERIFY = Boolean(process.env.VITEST);

/** A Kysely or a transaction: what compiles a raw query and runs a compiled one. */
type Database = QueryExecutorProvider & { executeQuery<R>(query: CompiledQuery<R>): Promise<QueryResult<R>> };

interface Shape {
  sql: string;
  /** The shape's parameters: a slot, or a constant of the SQL (the same for every call of the shape). */
  parameters: readonly unknown[];
}

/**
 * One statement's compiled shapes. `run(db, key, values, build)`: `key` names everything the SQL text depends on
 * besides `values` (say the queue and the page size), `build(v)` makes the query from `v` (never from the values
 * directly), and the statement runs with `values` in its slots.
 */
export class CachedStatement<R> {
  private readonly shapes = new Map<string, Shape>();

  private readonly limit: number;
  private readonly verify: boolean;

  constructor(opts: { limit?: number; verify?: boolean } = {}) {
    this.limit = opts.limit ?? MAX_SHAPES;
    this.verify = opts.verify ?? VERIFY;
  }

  async run<V extends Values>(
    db: Database,
    key: string,
    values: V,
    build: (v: V) => Compilable<R> | RawBuilder<R>,
  ): Promise<QueryResult<R>> {
    let shape = this.shapes.get(key);
    if (!shape) {
      shape = compile(db, build(slotsFor(values)));
      if (this.shapes.size < this.limit) this.shapes.set(key, shape);
    }
    const parameters = shape.parameters.map((p) => (p instanceof Slot ? values[p.name] : p));
    const query = CompiledQuery.raw(shape.sql, parameters) as CompiledQuery<R>;
    if (this.verify) assertSame(key, query, compile(db, build(values)));
    return db.executeQuery(query);
  }
}

function compile(db: Database, query: Compilable<unknown> | RawBuilder<unknown>): Shape {
  const { sql, parameters } = 'isRawBuilder' in query ? query.compile(db) : query.compile();
  return { sql, parameters };
}

function assertSame(key: string, cached: Shape, built: Shape) {
  const same =
    cached.sql === built.sql &&
    cached.parameters.length === built.parameters.length &&
    cached.parameters.every((p, i) => sameValue(p, built.parameters[i]));
  if (!same) {
    throw new Error(
      `Statement shape "${key}" differs from the statement built for this call:\n${cached.sql}\n${JSON.stringify(cached.parameters)}\nbuilt:\n${built.sql}\n${JSON.stringify(built.parameters)}`,
    );
  }
}

function sameValue(a: unknown, b: unknown): boolean {
  if (Buffer.isBuffer(a) && Buffer.isBuffer(b)) return a.equals(b);
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  return Object.is(a, b);
}
