// docs/INTAKE.md's example, posted as a landing site's developer would copy it (issue 33): the curl command's
// method, path and headers and the application.json beside it, read from the file, with a key an Admin made. The
// example must be an order the desk takes today and in the years to come (no date that will have passed).
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers/test-app.js';
import { createIntakeKey } from './helpers/intake.js';

const DOC = new URL('../../../docs/INTAKE.md', import.meta.url);

/** The fenced blocks of a markdown file of one language, in order. */
function codeBlocks(markdown: string, language: string): string[] {
  const fence = new RegExp('^```' + language + '\\n([\\s\\S]*?)^```$', 'gm');
  return [...markdown.matchAll(fence)].map((match) => match[1]!);
}

interface CurlCall {
  method: string;
  path: string;
  headers: Record<string, string>;
  dataFile: string;
}

/** The parts of the doc's curl command that make the request (its line continuations joined). */
function parseCurl(command: string): CurlCall {
  const line = command.replace(/\\\n\s*/g, ' ');
  const url = /curl\s+(?:-\S+\s+)*(https?:\/\/\S+)/.exec(line)?.[1];
  if (!url) throw new Error(`no URL in the doc's curl command: ${line}`);
  const headers: Record<string, string> = {};
  for (const [, header] of line.matchAll(/-H\s+"([^"]+)"/g)) {
    const colon = header!.indexOf(':');
    headers[header!.slice(0, colon).trim().toLowerCase()] = header!.slice(colon + 1).trim();
  }
  const dataFile = /--data\s+@(\S+)/.exec(line)?.[1];
  if (!dataFile) throw new Error(`no --data @file in the doc's curl command: ${line}`);
  return { method: /-X\s+(\w+)/.exec(line)?.[1] ?? 'POST', path: new URL(url).pathname, headers, dataFile };
}

let t: TestApp;
let intakeKey: string;

beforeAll(async () => {
  t = await buildTestApp();
  intakeKey = await createIntakeKey(t, 'default');
});
afterAll(() => t.close());

describe('docs/INTAKE.md', () => {
  it('its curl command with its application.json, as written, makes an order (201) that staff can open', async () => {
    const doc = await readFile(DOC, 'utf8');
    const [curl] = codeBlocks(doc, 'sh');
    const [json] = codeBlocks(doc, 'json');
    const call = parseCurl(curl!);
    expect(call.dataFile).toBe('application.json');
    expect(doc).toContain(`\`${call.dataFile}\` is one application`);
    // The one thing a developer puts in: the key, from the environment variable the command names.
    const headers = {
      ...call.headers,
      authorization: call.headers.authorization!.replace('$ETA_INTAKE_KEY', intakeKey),
    };
    expect(headers.authorization).toBe(`Bearer ${intakeKey}`);

    const res = await t.app.inject({
      method: call.method as 'POST',
      url: call.path,
      headers,
      payload: json!,
    });
    expect(res.statusCode, res.body).toBe(201);
    const { order_id: orderId, tracking_url: trackingUrl } = res.json<{
      data: { order_id: string; tracking_url: string };
    }>().data;
    expect(trackingUrl).toMatch(new RegExp(`/track-order/${orderId}$`));

    // The order is the doc's applicant, and its signature the doc's image.
    const admin = await t.signIn('Admin');
    const detail = await t.app.inject({
      url: `/api/admin/get-orders-details/${orderId}`,
      headers: { authorization: admin.token },
    });
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json().data).toMatchObject({
      email: 'maria.garcia@example.com',
      passport_surname: 'García López',
      landing_site: 'default',
    });
    const signature = await t.app.inject({
      url: `/api/admin/order-signature/${orderId}`,
      headers: { authorization: admin.token },
    });
    const sent = (JSON.parse(json!) as { signature: string }).signature;
    expect(signature.rawPayload.toString('base64')).toBe(sent.slice(sent.indexOf(',') + 1));

    // Sent again as the doc says a retry is sent (same Idempotency-Key, same body): the same order, 200.
    const again = await t.app.inject({ method: 'POST', url: call.path, headers, payload: json! });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data.order_id).toBe(orderId);
  });
});
