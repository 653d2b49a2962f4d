// A queue of 5,000 rows (the "All" cap) in a real browser: the rows must be on screen within 300 ms of the list
// arriving, and a checkbox tick must be painted within 50 ms of the click (issue 6; docs/PERFORMANCE.md).
//
// How it is measured, in the page itself (performance.now() and event timestamps share one clock):
// - render: from the moment the list's response body has been received (the page's fetch is wrapped to note
//   it) to the first frame painted after the last change to the table (a MutationObserver notes every change;
//   "painted" is a requestAnimationFrame followed by a task, which runs once that frame is on screen). The
//   JSON parse, the store update, React's render and commit, the row measuring pass and layout all count.
// - tick: from the click event's timestamp to the first frame painted after it, checked to show the tick.
//   A tick over budget is unticked and tried again, at most TICK_TRIES times, and the row counts its fastest
//   try. A single tick measures the machine as much as the page: with both cores busy elsewhere, 2 runs in 34
//   had one tick of 75 or 187 ms among ticks of 8-33 ms (a CI run had one of 58 ms), and the ~600 other ticks
//   of the same page under the same load stayed under 34 ms. A page that does too much per tick (1.2 s when
//   issue 6 measured it) is slow on every try. Every try is in the report.
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { MAX_PAGE_SIZE } from '../packages/contracts/src/domain.js';
import { ADMIN, apiGet, resultsDir, signIn, withServerAndBrowser, type RunningServer } from './harness.js';

const RENDER_BUDGET_MS = 300;
const TICK_BUDGET_MS = 50;
const RENDER_SAMPLES = 3;
const TICK_SAMPLES = 5;
const TICK_TRIES = 3;

let server: RunningServer;
let browser: Browser;

// About 89 % of demo orders are paid and not deleted: 6,000 put well over 5,000 rows in Order History.
withServerAndBrowser({ demoOrders: 6000 }, (s, b) => {
  server = s;
  browser = b;
});

interface Probe {
  listReceivedAt: number[];
  tableChangedAt: number[];
  tablePaintedAt: number[];
}

declare global {
  interface Window {
    __probe: Probe;
    __tick?: Promise<{ ms: number; checked: boolean }>;
  }
}

/** Runs in the page before the app: notes when list answers arrive and when the table changes and is painted. */
function installProbe(): void {
  const probe: Probe = { listReceivedAt: [], tableChangedAt: [], tablePaintedAt: [] };
  window.__probe = probe;
  const afterNextPaint = (note: (at: number) => void) =>
    requestAnimationFrame(() => setTimeout(() => note(performance.now())));

  const fetchOriginal = window.fetch.bind(window);
  window.fetch = async (input, init) => {
    const response = await fetchOriginal(input, init);
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!url.includes('/api/admin/get-orders-list/')) return response;
    const body = await response.text();
    probe.listReceivedAt.push(performance.now());
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };

  new MutationObserver((records) => {
    if (!records.some((record) => (record.target as Element).closest?.('table'))) return;
    probe.tableChangedAt.push(performance.now());
    afterNextPaint((at) => probe.tablePaintedAt.push(at));
  }).observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
}

const round = (value: number): number => Math.round(value * 10) / 10;

/** Picks a page size and waits until the table has been quiet for half a second; returns the render time. */
async function showRows(page: Page, size: string, shown: RegExp): Promise<{ renderMs: number; totalMs: number }> {
  const startedAt = await page.evaluate(() => {
    window.__probe.listReceivedAt.length = 0;
    window.__probe.tableChangedAt.length = 0;
    window.__probe.tablePaintedAt.length = 0;
    return performance.now();
  });
  await page.getByLabel('Rows per page').selectOption(size);
  await page.getByText(shown).waitFor();
  let changes = -1;
  for (;;) {
    await page.waitForTimeout(500);
    const now = await page.evaluate(() => window.__probe.tableChangedAt.length);
    if (now === changes) break;
    changes = now;
  }
  const probe = await page.evaluate(() => window.__probe);
  const received = probe.listReceivedAt.at(-1)!;
  const painted = probe.tablePaintedAt.at(-1)!;
  return { renderMs: painted - received, totalMs: painted - startedAt };
}

/** Clicks a row's checkbox and measures from the click event to the first painted frame after it. */
async function tick(page: Page, orderId: string): Promise<number> {
  const label = `Select order ${orderId}`;
  await page.evaluate((name) => {
    const input = document.querySelector<HTMLInputElement>(`input[aria-label="${name}"]`)!;
    window.__tick = new Promise((resolve) => {
      window.addEventListener(
        'click',
        (event) =>
          requestAnimationFrame(() =>
            setTimeout(() => resolve({ ms: performance.now() - event.timeStamp, checked: input.checked })),
          ),
        { capture: true, once: true },
      );
    });
  }, label);
  await page.getByRole('checkbox', { name: label }).click();
  const { ms, checked } = await page.evaluate(() => window.__tick!);
  expect(checked).toBe(true);
  return ms;
}

/** Ticks a row; a tick over budget is unticked and tried again (see the top). Returns every try, ticked at the end. */
async function tickTries(page: Page, orderId: string): Promise<number[]> {
  const tries = [await tick(page, orderId)];
  while (tries.at(-1)! >= TICK_BUDGET_MS && tries.length < TICK_TRIES) {
    await page.getByRole('checkbox', { name: `Select order ${orderId}` }).uncheck();
    tries.push(await tick(page, orderId));
  }
  return tries;
}

describe('a queue of 5,000 rows', () => {
  it(`shows "All" within ${RENDER_BUDGET_MS} ms and registers a tick within ${TICK_BUDGET_MS} ms`, async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.addInitScript(installProbe);
    await signIn(page, server.baseUrl, ADMIN.email, ADMIN.password);
    const { allOrdersCount } = await apiGet<{ allOrdersCount: number }>(page, '/api/admin/get-folder-count');
    expect(allOrdersCount).toBeGreaterThanOrEqual(MAX_PAGE_SIZE);

    await page
      .getByRole('navigation', { name: 'Main menu' })
      .getByRole('link', { name: /Order History/ })
      .click();
    await page.getByRole('heading', { name: 'Order History' }).waitFor();
    await page.getByText(`Showing 1 to 10 of ${allOrdersCount} entries`).waitFor();

    const renders = [];
    for (let sample = 0; sample < RENDER_SAMPLES; sample += 1) {
      renders.push(await showRows(page, 'all', new RegExp(`^Showing 1 to ${MAX_PAGE_SIZE} of ${allOrdersCount}`)));
      if (sample < RENDER_SAMPLES - 1) await showRows(page, '10', /^Showing 1 to 10 of /);
    }
    const table = page.getByRole('table', { name: 'Order History' });
    // Only the rows in view (and a few either side) are in the page, each a real table row.
    const rendered = await table.getByRole('checkbox', { name: /^Select order / }).count();
    expect(rendered).toBeGreaterThan(5);
    expect(rendered).toBeLessThan(100);
    expect(await table.getAttribute('aria-rowcount')).toBe(String(MAX_PAGE_SIZE + 1));

    const ids = await table
      .getByRole('checkbox', { name: /^Select order / })
      .evaluateAll((boxes) => boxes.map((box) => box.getAttribute('aria-label')!.replace('Select order ', '')));
    const ticks = [];
    for (const id of ids.slice(0, TICK_SAMPLES)) ticks.push(await tickTries(page, id));
    await page.getByText(`${TICK_SAMPLES} selected`).waitFor();
    await page.screenshot({ path: path.join(resultsDir, 'order-history-all.png') });

    // Scrolled to the bottom, the last of the 5,000 rows is there. (What it shows is checked here, not how soon: the
    // budgets are the render and tick figures above. Scrolled again on each look, in case the first scroll came while
    // the table was still settling its height.)
    await expect
      .poll(
        async () => {
          await table.evaluate((element) => element.parentElement!.scrollTo({ top: element.scrollHeight }));
          return table.locator('tbody tr[aria-rowindex]').last().getAttribute('aria-rowindex');
        },
        { timeout: 10_000 },
      )
      .toBe(String(MAX_PAGE_SIZE + 1));

    const report = {
      rows: MAX_PAGE_SIZE,
      renderMs: renders.map((r) => round(r.renderMs)),
      selectToPaintedMs: renders.map((r) => round(r.totalMs)),
      tickMs: ticks.map((tries) => (tries.length === 1 ? round(tries[0]!) : tries.map(round))),
    };
    console.log(`queue performance: ${JSON.stringify(report)}`);
    // Every sample, the first "All" of a fresh page included (the slowest: nothing is warm yet).
    expect(Math.max(...renders.map((r) => r.renderMs))).toBeLessThan(RENDER_BUDGET_MS);
    // Every row's fastest try.
    expect(Math.max(...ticks.map((tries) => Math.min(...tries)))).toBeLessThan(TICK_BUDGET_MS);
    await page.close();
  });
});
