// Every call that asks for a mail says what happened to it in a field a client branches on (issue 22): `delivery`
// is queued when a provider will send it, not_sent with the reason when none is configured. The console styles
// its toast from this field, so a mail that was not sent is never announced as a success.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MailDelivery } from '@eta/contracts';
import { buildTestApp, type TestApp } from './helpers/test-app.js';
import { insertOrder } from './helpers/orders.js';
import { standInMailConfig, startMailStandIn, type MailStandIn } from './helpers/mail-stand-ins.js';
import { PDF, uploadRequest } from './helpers/uploads.js';

let standIn: MailStandIn;
beforeAll(async () => {
  standIn = await startMailStandIn();
});
afterAll(() => standIn.close());

/** Upload, Resend and Send Invoice on one order, as a Team member; each answer's delivery and message. */
async function everyMailCall(t: TestApp): Promise<Record<string, { delivery: MailDelivery; message: string }>> {
  const team = await t.signIn('Team');
  const orderId = await insertOrder(t.database.db);
  const form = await uploadRequest(
    { orderId, email: 'customer@outcome.test', mailServiceProvider: 'AWS', confirmEmailChange: 'true' },
    { name: 'approval.pdf', content: PDF, type: 'application/pdf' },
  );
  const calls = {
    upload: () =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/upload-visa-document',
        headers: { ...form.headers, authorization: team.token },
        payload: form.payload,
      }),
    resend: () =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/resend-mail',
        headers: { authorization: team.token },
        payload: { orderId, email: 'customer@outcome.test', mailServiceProvider: 'AWS', confirmEmailChange: 'true' },
      }),
    invoice: () =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/send-invoice',
        headers: { authorization: team.token },
        payload: { orderId },
      }),
  };
  const answers: Record<string, { delivery: MailDelivery; message: string }> = {};
  for (const [name, call] of Object.entries(calls)) {
    const res = await call();
    expect(res.statusCode, `${name}: ${res.body}`).toBe(200);
    const body = res.json<{ message: string; data: { delivery: MailDelivery } }>();
    answers[name] = { delivery: body.data.delivery, message: body.message };
  }
  return answers;
}

describe('delivery in the answer of every call that mails', () => {
  it('with a provider: queued, and the wording says it is on its way', async () => {
    const t = await buildTestApp({ mail: standInMailConfig(standIn, ['AWS']) });
    try {
      const answers = await everyMailCall(t);
      expect(answers).toEqual({
        upload: { delivery: { state: 'queued' }, message: expect.stringMatching(/is on its way\.$/) },
        resend: { delivery: { state: 'queued' }, message: expect.stringMatching(/will be sent again to/) },
        invoice: { delivery: { state: 'queued' }, message: expect.stringMatching(/is being sent to/) },
      });
    } finally {
      await t.close();
    }
  });

  it('without a provider: not_sent because no_provider, and the wording says it was not sent', async () => {
    const t = await buildTestApp({ mail: standInMailConfig(standIn, []) });
    try {
      const answers = await everyMailCall(t);
      const notSent = { state: 'not_sent', reason: 'no_provider' };
      expect(answers).toEqual({
        upload: { delivery: notSent, message: expect.stringMatching(/mail was not sent/) },
        resend: { delivery: notSent, message: expect.stringMatching(/mail was not sent/) },
        invoice: { delivery: notSent, message: expect.stringMatching(/kept in Email History as not sent/) },
      });
    } finally {
      await t.close();
    }
  });
});
