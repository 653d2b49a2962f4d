// Intake validation in process: one body checked by the server's own code, without HTTP or the database.
import { TARGETS, serverModule } from '../harness.mjs';
import { intakeBody } from './intake.mjs';

/**
 * One intake body's validation, on its own: the JSON text parsed, checked by the server's own code (schema with
 * every failing field, cross-field rules, the signature judged by its bytes) 20,000 times after a warm-up, each
 * call timed. The body must pass every time, so a refusal is never what is timed.
 */
export async function measureIntakeValidation() {
  const { checkApplication, readSignature } = await serverModule('modules/intake/application.js');
  const body = await intakeBody();
  const text = JSON.stringify(body);
  const now = new Date();
  const once = async () => {
    const checked = checkApplication(JSON.parse(text), now);
    const signature = checked.ok ? await readSignature(checked.body.signature) : undefined;
    if (!checked.ok || !signature || 'field' in signature)
      throw new Error(`intake body refused: ${JSON.stringify(checked.issues)}`);
  };
  for (let i = 0; i < 2000; i += 1) await once();
  const times = [];
  const started = performance.now();
  for (let i = 0; i < 20_000; i += 1) {
    const t0 = performance.now();
    await once();
    times.push(performance.now() - t0);
  }
  const seconds = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  const at = (q) => Math.round(times[Math.min(times.length - 1, Math.floor(q * times.length))] * 1000) / 1000;
  const row = {
    name: 'intake: validation of one body (in process)',
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
    rps: Math.round(times.length / seconds),
    sqlMs: null,
    planningMs: null,
    statements: null,
    floorRatio: null,
    connections: 1,
    targetP95: TARGETS.intakeValidation,
    meets: at(0.95) <= TARGETS.intakeValidation,
  };
  console.log(
    `${row.meets ? 'ok  ' : 'MISS'} ${row.name.padEnd(44)} p50 ${row.p50}ms  p95 ${row.p95}ms  p99 ${row.p99}ms`,
  );
  return row;
}
