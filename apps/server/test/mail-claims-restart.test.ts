// A mail in flight when its server died (issue 32: it was sent again only once its 2-minute lease ended). Two built
// servers on one PostgreSQL database of the test's own, each mid-send of one mail (the provider holds its answer);
// one is killed (SIGKILL) and started again on the same port: it takes back its own dead claim at once and sends the
// mail again (at least once: the customer may get it twice, both copies with one X-Eta-Mail-Key), while the other
// server's live claim is left alone until that server settles it.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/db/database.js';
import { insertMail } from '../src/modules/mail/mail.repository.js';
import { freePort, startBuiltServer, waitFor, type BuiltServer } from './helpers/built-server.js';
import { startMailStandIn, type MailStandIn } from './helpers/mail-stand-ins.js';
import { ownPostgresRuns, startOwnPostgres, type OwnPostgres } from './helpers/own-postgres.js';

const queueMail = (database: DatabaseHandle, to: string) =>
  insertMail(database.db, {
    orderId: null,
    kind: 'resend',
    to,
    from: 'eTA Desk <desk@claims.test>',
    provider: 'AWS',
    subject: `Your eTA (${to})`,
    html: '<p>Approved</p>',
    text: 'Approved',
    attachments: [],
    documentId: null,
    failed: null,
  });

describe.runIf(ownPostgresRuns)('a mail in flight when its server died', () => {
  it('is taken back at once by the server’s next start; another live server’s claim is left alone', async () => {
    let postgres: OwnPostgres | undefined;
    let standIn: MailStandIn | undefined;
    let database: DatabaseHandle | undefined;
    const servers: BuiltServer[] = [];
    const releases: (() => void)[] = [];
    const dirs = [
      await mkdtemp(path.join(os.tmpdir(), 'eta-claims-a-')),
      await mkdtemp(path.join(os.tmpdir(), 'eta-claims-b-')),
    ];
    try {
      postgres = await startOwnPostgres();
      const url = await postgres.createDatabase('eta_claims');
      standIn = await startMailStandIn();
      const dataKey = randomBytes(32).toString('base64');
      const start = async (dataDir: string, port?: number) => {
        const server = await startBuiltServer(
          {
            DATABASE_URL: url,
            DATA_DIR: dataDir,
            DATA_KEY: dataKey,
            JWT_SECRET: 'mail-claims-restart-test-secret-long-enough',
            ADMIN_EMAIL: 'admin@claims.test',
            ADMIN_PASSWORD: 'claims-secret',
            MAIL_POLL_SECONDS: '1',
            AWS_REGION: 'us-east-1',
            AWS_ACCESS_KEY_ID: 'AKIATESTSTANDIN',
            AWS_SECRET_ACCESS_KEY: 'stand-in-secret-key',
            AWS_ENDPOINT_URL_SESV2: standIn!.url,
          },
          port,
        );
        servers.push(server);
        return server;
      };
      database = await openDatabase({ url, poolSize: 2 });
      const row = (id: number) =>
        database!.db
          .selectFrom('mails')
          .select(['state', 'locked_until', 'claimed_by', 'claim_boot', 'attempts'])
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
      const deliveriesTo = (to: string) => standIn!.delivered().filter((m) => m.to[0] === to);

      // Server A takes the first mail and waits on the provider; then server B takes the second (A's one round at a
      // time is still waiting) and waits too.
      const portA = await freePort();
      const a = await start(dirs[0]!, portA);
      releases.push(standIn.holdNext('AWS'));
      const first = await queueMail(database, 'first@claims.test');
      await waitFor('server A to be sending the first mail', () => deliveriesTo('first@claims.test').length === 1);
      const b = await start(dirs[1]!);
      releases.push(standIn.holdNext('AWS'));
      const second = await queueMail(database, 'second@claims.test');
      await waitFor('server B to be sending the second mail', () => deliveriesTo('second@claims.test').length === 1);
      const firstClaim = await row(first.id);
      const secondClaim = await row(second.id);
      expect(firstClaim).toMatchObject({ state: 'queued', claimed_by: `${os.hostname()}:${portA}`, attempts: 1 });
      expect(secondClaim).toMatchObject({ state: 'queued', claimed_by: `${os.hostname()}:${b.port}`, attempts: 1 });
      expect(firstClaim.locked_until!.getTime() - Date.now()).toBeGreaterThan(100_000);

      // A dies mid-send and starts again on its port: its first round takes the mail back and sends it again.
      a.process.kill('SIGKILL');
      await a.exited;
      await start(dirs[0]!, portA);
      const readyAt = Date.now();
      await waitFor('the first mail to be sent again', async () => (await row(first.id)).state === 'sent', 5_000);
      expect(Date.now() - readyAt, 'taken back at once, not after the lease').toBeLessThan(3_000);
      expect(await row(first.id)).toMatchObject({ claimed_by: `${os.hostname()}:${portA}`, attempts: 2 });
      // At least once: the customer may have both copies, recognisable as one mail by their key.
      const copies = deliveriesTo('first@claims.test');
      expect(copies).toHaveLength(2);
      expect(copies[1]!.keyHeader).toBe(copies[0]!.keyHeader);

      // B is alive: its claim stays its own (two more polls of A's worker) until B settles it.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(await row(second.id)).toEqual(secondClaim);
      expect(deliveriesTo('second@claims.test')).toHaveLength(1);
      releases[1]!();
      await waitFor('server B to record the second mail sent', async () => (await row(second.id)).state === 'sent');
      expect(deliveriesTo('second@claims.test')).toHaveLength(1);
    } finally {
      for (const release of releases) release();
      for (const server of servers) if (server.process.exitCode === null) server.process.kill('SIGKILL');
      await Promise.all(servers.map((s) => s.exited));
      await database?.close();
      await standIn?.close();
      postgres?.destroy();
      for (const dir of dirs) await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
