// Summarises a V8 CPU profile (node --cpu-prof) by self time: the top functions and a few groups that say where
// a request's time goes (socket writes, JWT/WebCrypto, Kysely, pg, logging, GC). Usage:
//   node bench/profile-summary.mjs <file.cpuprofile> [top]
import { readFileSync } from 'node:fs';

const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: node bench/profile-summary.mjs <file.cpuprofile> [top]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
const deltas = profile.timeDeltas;
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (deltas[i] ?? 0)));
const total = [...self.values()].reduce((a, b) => a + b, 0);

const label = (n) => {
  const f = n.callFrame;
  const where = f.url ? f.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/apps\//, 'apps/') : '';
  return `${f.functionName || '(anonymous)'} ${where}${f.lineNumber >= 0 && where ? `:${f.lineNumber + 1}` : ''}`.trim();
};
const functions = new Map();
for (const [id, t] of self) {
  const key = label(byId.get(id));
  functions.set(key, (functions.get(key) ?? 0) + t);
}
const GROUPS = [
  ['idle', /^\(idle\)/],
  ['garbage collection', /^\(garbage collector\)/],
  ['socket writes', /writev|writeGeneric|writeBuffer|_writeGeneric|Writev|writeUtf8String/],
  ['JWT and WebCrypto', /jose\/|webcrypto|subtle|hmac|Hmac/i],
  ['Kysely (build and compile)', /kysely\//],
  ['pg (protocol and parsing)', /pg\/|pg-protocol\/|pg-types\//],
  ['logging (pino)', /pino|sonic-boom/],
  ['fastify and serialisation', /fastify|fast-json-stringify|find-my-way|light-my-request|avvio/],
];
const groups = new Map(GROUPS.map(([name]) => [name, 0]));
for (const [key, t] of functions) {
  const group = GROUPS.find(([, re]) => re.test(key));
  if (group) groups.set(group[0], groups.get(group[0]) + t);
}
const pct = (t) => `${((t / total) * 100).toFixed(1)} %`;
const busy = total - groups.get('idle');
console.log(`profile: ${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s busy`);
console.log('\ngroups (share of busy time):');
for (const [name, t] of groups)
  if (name !== 'idle') console.log(`  ${name.padEnd(30)} ${((t / busy) * 100).toFixed(1)} %`);
console.log(`\ntop ${topArg ?? 15} functions by self time (share of all samples):`);
[...functions.entries()]
  .sort((a, b) => b[1] - a[1])
  .slice(0, Number(topArg ?? 15))
  .forEach(([key, t]) => console.log(`  ${pct(t).padStart(7)}  ${key}`));
