// Starts the mail outbox worker with the app (onReady) and stops it with the app (onClose), waiting for the
// round in flight. MAIL_WORKER=false leaves delivery to another process (or, in tests, to the test itself).
import fp from 'fastify-plugin';
import { OutboxWorker } from '../modules/mail/outbox-worker.js';

export default fp(
  async (app) => {
    const { mail } = app.services;
    const worker = new OutboxWorker(mail, app.config.mail.pollIntervalMs, app.log.child({ module: 'mail-worker' }));
    if (app.config.mail.worker) app.addHook('onReady', async () => worker.start());
    app.addHook('onClose', async () => {
      await worker.stop();
      mail.close();
    });
  },
  { name: 'mail-worker' },
);
