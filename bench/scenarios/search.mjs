// Search: the commonest first name, surname and e-mail domain of the data (picked by frequency), at page 1 and
// page 20, plus an order id fragment and a name fragment, in Order History, the widest queue; and the commonest
// first name and e-mail domain in New, whose searches have indexes of their own (migrations 011 and 019).
import { PAGE_SIZE } from '../harness.mjs';

/** The commonest first name, surname and e-mail domain (its name before the first dot) among the orders. */
async function commonSearchTerms(pool) {
  const commonest = async (expression) =>
    (
      await pool.query(
        `SELECT ${expression} AS v FROM orders WHERE ${expression} <> '' GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1`,
      )
    ).rows[0].v;
  return {
    firstName: await commonest('passport_first_name'),
    surname: await commonest('passport_surname'),
    domain: await commonest(`split_part(split_part(email, '@', 2), '.', 1)`),
  };
}

export async function searchCases({ pool, staff, sample }) {
  const idFragment = sample.order_id.slice(-6);
  const terms = await commonSearchTerms(pool);
  const cases = [];
  for (const [label, value, pages, queue] of [
    ['order id fragment', idFragment, [1], 'orderHistory'],
    ['commonest first name', terms.firstName, [1, 20], 'orderHistory'],
    ['commonest surname', terms.surname, [1, 20], 'orderHistory'],
    ['commonest e-mail domain', terms.domain, [1, 20], 'orderHistory'],
    // Issue 22's figure: a name fragment of first names and surnames alike (Nils, Nilsson), 0.3 % of the orders.
    ['name fragment', 'Nils', [1], 'orderHistory'],
    ['commonest first name', terms.firstName, [1], 'newOrder'],
    ['commonest e-mail domain', terms.domain, [1], 'newOrder'],
  ]) {
    for (const page of pages) {
      const start = (page - 1) * PAGE_SIZE;
      cases.push({
        name: `search ${label} "${value}"${queue === 'newOrder' ? ' in New' : ''} page ${page}`,
        kind: 'search',
        method: 'POST',
        path: '/api/admin/search-order',
        body: { start, end: start + PAGE_SIZE, searchVal: value, folderName: queue },
        // An id fragment may also occur in a telephone number: at least the order itself is found.
        ...(label === 'order id fragment' ? { minRows: 1 } : { rows: PAGE_SIZE }),
        call: (s) => s.queries.searchQueue(staff, queue, value, start, start + PAGE_SIZE),
      });
    }
  }
  return cases;
}
