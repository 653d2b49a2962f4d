// What each page makes a browser download before it can show anything, in gzipped JavaScript, from Vite's
// manifest: the page's entry and its static imports, plus (console) the lazy console chunk every console page
// loads at once. Fails the build when a page grows past its budget (docs/PERFORMANCE.md).
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));

const BUDGETS = [
  { page: 'portal (/track-order)', entry: 'portal.html', alsoLoads: [], limitKb: 100 },
  {
    page: 'staff console (/admin)',
    entry: 'index.html',
    alsoLoads: ['console-routes'],
    limitKb: null,
  },
];

/** A manifest key, or the name of a chunk (a lazy chunk that other lazy chunks share is keyed by its file). */
const keyOf = (nameOrKey) =>
  manifest[nameOrKey] ? nameOrKey : Object.keys(manifest).find((key) => manifest[key].name === nameOrKey);

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
  const files = closure([budget.entry, ...budget.alsoLoads].map(keyOf));
  const total = files.reduce((sum, file) => sum + gzipKb(file), 0);
  const over = budget.limitKb !== null && total > budget.limitKb;
  failed ||= over;
  const limit = budget.limitKb === null ? '' : ` (budget ${budget.limitKb} KB)`;
  console.log(`${over ? '✗' : '✓'} ${budget.page}: ${total.toFixed(1)} KB gzipped JavaScript on first load${limit}`);
  for (const file of files) console.log(`    ${file}  ${gzipKb(file).toFixed(1)} KB`);
}
if (failed) {
  console.error('A page grew past its JavaScript budget: move code behind a lazy import or drop a dependency.');
  process.exit(1);
}
