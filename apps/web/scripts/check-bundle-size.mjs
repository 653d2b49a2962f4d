// What each page makes a browser download before it can show anything, in gzipped JavaScript, from Vite's
// manifest: the page's entry chunk and everything it imports statically, plus the lazy route modules the router
// loads for that URL (app/router.tsx) and everything they import statically. Each file counts once. For the console
// that is two pages: '/' (the sign-in page: entry-route) and '/admin' (the dashboard: staff-shell and
// dashboard-route). Fails the build when a page grows past its budget (docs/PERFORMANCE.md).
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));

const ROUTES = 'src/app/routes';
const BUDGETS = [
  { page: 'portal (/track-order)', entry: 'portal.html', lazy: [], limitKb: 100 },
  { page: 'staff console sign-in (/)', entry: 'index.html', lazy: [`${ROUTES}/entry-route.tsx`], limitKb: 250 },
  {
    page: 'staff console dashboard (/admin)',
    entry: 'index.html',
    lazy: [`${ROUTES}/staff-shell.tsx`, `${ROUTES}/dashboard-route.tsx`],
    limitKb: 250,
  },
];

/** The JavaScript files of these manifest keys and of everything they import statically. */
function closure(keys) {
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`The build manifest has no ${key}`);
    seen.add(key);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  keys.forEach(visit);
  return [...seen].map((key) => manifest[key].file).filter((file) => file.endsWith('.js'));
}

const gzipKb = (file) => gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length / 1024;

let failed = false;
for (const budget of BUDGETS) {
  for (const key of budget.lazy) {
    // A lazy module the entry never imports dynamically would be counted although no URL loads it.
    if (!manifest[budget.entry].dynamicImports?.includes(key)) throw new Error(`${budget.entry} does not load ${key}`);
  }
  const files = closure([budget.entry, ...budget.lazy]);
  const total = files.reduce((sum, file) => sum + gzipKb(file), 0);
  const over = total > budget.limitKb;
  failed ||= over;
  console.log(
    `${over ? '✗' : '✓'} ${budget.page}: ${total.toFixed(1)} KB gzipped JavaScript on first load (budget ${budget.limitKb} KB)`,
  );
  for (const file of files) console.log(`    ${file}  ${gzipKb(file).toFixed(1)} KB`);
}
if (failed) {
  console.error('A page grew past its JavaScript budget: move code behind a lazy import or drop a dependency.');
  process.exit(1);
}
