// Search (issue 31): the searches a person makes, each class picked from the data by a rule, never by hand: whole
// values of an order months old (order id, e-mail, telephone as typed, full name), fragments of a recent order's id,
// e-mail and surname, a text nothing matches, a word only the oldest orders have, words in most or every order, a
// burst of new orders sharing a surname and an e-mail domain (300, below the count's cap, and 1,500, above it), one and
// two characters; in Order History, and a name and a fragment in every other queue. Before it is timed each case must
// answer 200 with exactly the rows a reference query (plain SQL here, not the server's search) says, newest first.
import { DURATION, PAGE_SIZE, TARGETS, httpOnlyRow, load, serverModule } from '../harness.mjs';

/** The bursts: new orders a minute old sharing a surname and an e-mail domain no other order has. */
const BURSTS = [
  { size: 300, surname: 'Quennellwright', domain: 'quennellwright-family.example', firstId: 950_000_001 },
  { size: 1_500, surname: 'Ashbourneley', domain: 'ashbourneley-travel.example', firstId: 950_010_001 },
];
const BURST_IDS = `order_id >= 'ETA-950000000' AND order_id < 'ETA-951000000'`;

/**
 * Adds the bursts as orders made through intake a minute ago, newer than every seeded order: the larger one newest,
 * so the smaller one is behind 1,500 orders that do not match it. Removed again first if an earlier run left them, and
 * the table vacuumed: else each run's removed bursts stay in the indexes until a VACUUM (autovacuum waits for a fifth
 * of the table to change), and the newest week's index step read 8,100 entries for 1,800 orders after five runs.
 */
export async function addBursts(pool) {
  await removeBursts(pool);
  await pool.query('VACUUM orders');
  for (const [i, burst] of BURSTS.entries()) {
    await pool.query(
      `INSERT INTO orders (order_id, email, landing_site, payment_status, process_status, processing_type,
         passport_first_name, passport_surname, telephone_number, country_code, citizen_country, created_at)
       SELECT 'ETA-' || ($1::int + g), 'traveller' || g || '@' || $2, 'default', 'Success', 'New', 'Standard',
         (ARRAY['Ava', 'Noah', 'Mia', 'Leo', 'Zoe'])[1 + g % 5], $3, (600000000 + g)::text, '44', 'United Kingdom',
         now() - interval '2 minutes' + $4 * interval '1 minute' + g * interval '1 millisecond'
       FROM generate_series(0, $5 - 1) AS g`,
      [burst.firstId, burst.domain, burst.surname, i, burst.size],
    );
  }
  await pool.query('ANALYZE orders');
}

export async function removeBursts(pool) {
  await pool.query(`DELETE FROM orders WHERE ${BURST_IDS}`);
}

/**
 * The reference: a queue's page in plain SQL, with the queues' filters as the server defines them (queues.ts). `exact`
 * is what the text is exactly (an order id, an address, a name), `fragment` the text looked for inside the search
 * fields; exact matches come first, each part in queue order.
 */
async function referenceQuery(pool, staffId) {
  const { Kysely, PostgresDialect, sql } = await import('kysely');
  const { queueFilter } = await serverModule('modules/orders/queues.js');
  const db = new Kysely({ dialect: new PostgresDialect({ pool }) });
  const lead = { futureOrder: sql`processing_date ASC,`, chargeBack: sql`dispute_due_at ASC NULLS LAST,` };
  const searchText = sql`lower(order_id || ' ' || coalesce(passport_first_name, '') || ' ' ||
    coalesce(passport_surname, '') || ' ' || email || ' ' || coalesce(telephone_number, ''))`;
  return async (queue, { exact, fragment }, start = 0) => {
    const isExact = exact ? exact(sql) : sql`false`;
    const rows = await db
      .selectFrom('orders')
      .where((eb) => queueFilter(queue, eb, staffId))
      .where(
        fragment === undefined ? isExact : sql`(${isExact} OR strpos(${searchText}, ${fragment.toLowerCase()}) > 0)`,
      )
      .select('order_id')
      .orderBy(sql`${exact ? sql`(${isExact}) DESC,` : sql``} ${lead[queue] ?? sql``} created_at DESC, id DESC`)
      .offset(start)
      .limit(PAGE_SIZE)
      .execute();
    return rows.map((r) => r.order_id);
  };
}

const isName = (name) => (sql) =>
  sql`(lower(passport_surname) = ${name.toLowerCase()} OR lower(passport_first_name) = ${name.toLowerCase()})`;

/** One value of the data by a rule: the first row of a query. */
const pick = async (pool, query, params = []) => (await pool.query(query, params)).rows[0];

export async function searchCases({ pool, staff }) {
  const reference = await referenceQuery(pool, staff.id);
  const history = `payment_status = 'Success' AND process_status <> 'Deleted'`;
  // An order months old: the newest in Order History bought 180 days before the newest order.
  const old = await pick(
    pool,
    `SELECT order_id, email, telephone_number, country_code, passport_first_name, passport_surname FROM orders
     WHERE ${history} AND telephone_number IS NOT NULL AND NOT (${BURST_IDS})
       AND created_at < (SELECT max(created_at) FROM orders WHERE NOT (${BURST_IDS})) - interval '180 days'
     ORDER BY created_at DESC LIMIT 1`,
  );
  // A recent order: the 1,000th newest in Order History.
  const recent = await pick(
    pool,
    `SELECT order_id, email, passport_surname FROM orders WHERE ${history} AND NOT (${BURST_IDS})
     ORDER BY created_at DESC, id DESC OFFSET 1000 LIMIT 1`,
  );
  // The commonest full name, surname and e-mail domain (its name before the first dot).
  const commonest = async (expression) =>
    (
      await pick(
        pool,
        `SELECT ${expression} AS v FROM orders WHERE ${expression} <> '' GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1`,
      )
    ).v;
  const fullName = await commonest(`passport_first_name || ' ' || passport_surname`);
  const firstName = await commonest('passport_first_name');
  const surname = await commonest('passport_surname');
  const domain = await commonest(`split_part(split_part(email, '@', 2), '.', 1)`);
  // A word only the oldest orders have: the local part of the oldest order's e-mail, which no other order has.
  const oldest = await pick(
    pool,
    `SELECT split_part(email, '@', 1) AS word FROM orders ORDER BY created_at, id LIMIT 1`,
  );
  // A text no order has, and two letters no order has (the first of a few pairs rarely seen in names and addresses).
  const nothing = 'qzxjv0w9';
  const searchText = `lower(order_id || ' ' || coalesce(passport_first_name, '') || ' ' ||
    coalesce(passport_surname, '') || ' ' || email || ' ' || coalesce(telephone_number, ''))`;
  let pair = null;
  for (const candidate of ['xq', 'qx', 'zq', 'qz', 'jq', 'qj', 'vq', 'qv']) {
    const { rows } = await pool.query(`SELECT 1 FROM orders WHERE strpos(${searchText}, $1) > 0 LIMIT 1`, [candidate]);
    if (rows.length === 0) {
      pair = candidate;
      break;
    }
  }
  if (!pair) throw new Error('every two-letter candidate is in some order');
  const [below, above] = BURSTS;

  const cases = [];
  /** A case: `exact` what the text is whole (the answer, when `whole`), else a fragment too (and a word, a name). */
  const add = (label, text, { queue = 'orderHistory', start = 0, exact, whole = false }) =>
    cases.push({ label, text, queue, start, exact, whole });
  // Whole values of the order months old.
  add('whole order id, months old', old.order_id, { exact: (sql) => sql`order_id = ${old.order_id}`, whole: true });
  add('whole e-mail, months old', old.email.toUpperCase(), {
    exact: (sql) => sql`lower(email) = ${old.email.toLowerCase()}`,
    whole: true,
  });
  const digits = old.telephone_number.replace(/\D/g, '');
  add('whole telephone as typed, months old', `+${old.country_code} ${digits.slice(0, 3)} ${digits.slice(3)}`, {
    exact: (sql) =>
      sql`regexp_replace(telephone_number, '[^0-9]', '', 'g') = ${digits} AND country_code = ${old.country_code}`,
    whole: true,
  });
  // A full name found is the answer (in either order: "Jones Harry" too).
  const reversed = fullName.split(' ').reverse().join(' ').toLowerCase();
  add('commonest full name', fullName, {
    exact: (sql) =>
      sql`lower(passport_first_name || ' ' || passport_surname) IN (${fullName.toLowerCase()}, ${reversed})`,
    whole: true,
  });
  add('commonest first name, page 20', firstName, { start: 19 * PAGE_SIZE, exact: isName(firstName) });
  // Fragments of the recent order.
  add('order id fragment, recent', recent.order_id.slice(-6), {});
  const local = recent.email.split('@')[0];
  add('e-mail fragment, recent', local.slice(1, 8), { exact: isName(local.slice(1, 8)) });
  add('surname fragment, recent', recent.passport_surname.slice(1, 5), {
    exact: isName(recent.passport_surname.slice(1, 5)),
  });
  add('a text nothing matches', nothing, {});
  add('a word only the oldest order has', oldest.word, {});
  add('commonest e-mail domain', domain, { exact: isName(domain) });
  add('in every order', 'eta-', {});
  // The bursts, by surname (an exact name) and by e-mail domain (a fragment), first and last pages.
  for (const burst of [below, above]) {
    const last = Math.min(burst.size, 1000) - PAGE_SIZE;
    const tag = `burst of ${burst.size.toLocaleString('en')}`;
    for (const start of [0, last]) {
      add(`${tag}: surname, row ${start + 1}`, burst.surname, { start, exact: isName(burst.surname) });
      const fragment = burst.domain.slice(0, 15);
      add(`${tag}: e-mail domain fragment, row ${start + 1}`, fragment, { start });
    }
  }
  // One and two characters: one in most orders, two in none (answered from the newest orders).
  add('one character', 'e', { exact: isName('e') });
  add('two characters nothing has', pair, { exact: isName(pair) });
  // Every other queue: the commonest surname and a fragment of the commonest e-mail domain.
  for (const queue of [
    'newOrder',
    'priorityOrder',
    'futureOrder',
    'pendingOrder',
    'completedOrder',
    'awaitingResponse',
    'awaitingGovt',
    'customerCalled',
    'contactCustomer',
    'deletedOrder',
    'refundOrder',
    'chargeBack',
  ]) {
    add(`commonest surname in ${queue}`, surname, { queue, exact: isName(surname) });
    add(`e-mail domain fragment in ${queue}`, domain.slice(0, 4), { queue, exact: isName(domain.slice(0, 4)) });
  }

  const out = [];
  for (const c of cases) {
    const expectIds = await reference(c.queue, { exact: c.exact, fragment: c.whole ? undefined : c.text }, c.start);
    out.push({
      name: `search ${c.label} "${c.text}"${c.queue === 'orderHistory' ? '' : ` in ${c.queue}`}`,
      kind: 'search',
      method: 'POST',
      path: '/api/admin/search-order',
      body: { start: c.start, end: c.start + PAGE_SIZE, searchVal: c.text, folderName: c.queue },
      expectIds,
      ...(c.whole ? { expectExact: true } : {}),
      call: (s) => s.queries.searchQueue(staff, c.queue, c.text, c.start, c.start + PAGE_SIZE),
    });
  }
  return out;
}

/**
 * The issue's test of bounds: the searches that used to hold the database (a burst's surname and e-mail domain on
 * their last page, a fragment whose trigrams are in most orders but not its newest, two letters no order has, a word
 * only the oldest order has), sent without pause at 4 connections, while Order History's first page is timed at 4.
 */
export async function measureListBesideSearches(cases, token, floor) {
  const connections = 4;
  const list = { path: `/api/admin/get-orders-list/orderHistory?page=1&limit=${PAGE_SIZE}&delay=1` };
  const hard = cases.filter((c) =>
    /burst of 1,500.*row 951|only the oldest|two characters|surname fragment/.test(c.name),
  );
  const bodies = [
    ...hard.map((c) => c.body),
    { start: 0, end: PAGE_SIZE, searchVal: 'eta-2005', folderName: 'orderHistory' },
  ];
  let n = 0;
  const searches = {
    method: 'POST',
    path: '/api/admin/search-order',
    body: bodies[0],
    perRequestBody: () => JSON.stringify(bodies[(n += 1) % bodies.length]),
  };
  const name = `list orderHistory page 1 (${connections} connections) while hard searches run at ${connections}`;
  await load(name, list, token, 2, connections);
  const alone = await load(name, list, token, DURATION, connections);
  await load('searches', searches, token, 2, connections);
  const [beside, during] = await Promise.all([
    load(name, list, token, DURATION, connections),
    load('searches', searches, token, DURATION + 1, connections),
  ]);
  const row = httpOnlyRow(name, beside, floor, {
    connections,
    targetP95: TARGETS.page1,
    alone: { p50: alone.p50, p95: alone.p95, rps: alone.rps },
    searches: {
      p50: during.p50,
      p95: during.p95,
      p975: during.p975,
      rps: during.rps,
      texts: bodies.map((b) => b.searchVal),
    },
  });
  console.log(
    `${row.meets ? 'ok  ' : 'MISS'} ${name}  p50 ${row.p50}ms  p95 ${row.p95}ms  ${row.rps} req/s (alone: p95 ${alone.p95}ms, ${alone.rps} req/s; searches meanwhile p97.5 ${during.p975}ms, ${during.rps}/s)`,
  );
  return row;
}
