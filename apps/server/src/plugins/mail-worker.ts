// Starts the mail outbox worker with the app (onReady) and stops it with the app: no new claims once closing
// begins (preClose), then (onClose) a bounded wait for the round in flight and the leases still held handed back,
// so another process sends those mails at once. MAIL_WORKER=false leaves delivery to another process (or, in tests,
// to the test itself).
import fp from 'fastify-plugin';
import { OutboxWorker } from '../modules/mail/outbox-worker.js';

/** How long closing waits for sends in flight before handing their mails back. */
const SEND_WAIT_MS = 3_000;

export default fp(
  async (app) => {
    const { mail } = app.services;
    const worker = new OutboxWorker(mail, app.config.mail.pollIntervalMs, app.log.child({ module: 'mail-worker' }));
    if (app.config.mail.worker) app.addHook('onReady', async () => worker.start());
    app.addHook('preClose', async () => worker.stopClaiming());
    app.addHook('onClose', async () => {
      if (!(await worker.stop(SEND_WAIT_MS))) {
        const released = await mail.releaseClaims().catch((err: unknown) => {
          app.log.warn({ err }, 'mail worker: could not hand back its claims; they return when their lease ends');
          return 0;
        });
        app.log.info({ released }, 'mail worker stopped mid-send: its claims handed back');
      }
      mail.close();
    });
  },
  { name: 'mail-worker' },
);
