// Loopback stand-ins the browser tests' server talks to instead of the internet, and the files they upload.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { approvalPdf as approvalOf } from '../apps/server/test/helpers/uploads.js';

export interface ArrivedMail {
  to: string[];
  subject: string;
  html: string;
  attachments: { filename: string; type: string }[];
}

/** SendGrid's v3 send call, as its SDK makes it: POST /v3/mail/send → 202 with an x-message-id. */
export async function startSendgridStandIn() {
  const arrived: ArrivedMail[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v3/mail/send') {
        res.writeHead(404).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        personalizations: { to: { email: string }[] }[];
        subject: string;
        content: { type: string; value: string }[];
        attachments?: { filename: string; type: string }[];
      };
      arrived.push({
        to: body.personalizations.flatMap((p) => p.to.map((t) => t.email)),
        subject: body.subject,
        html: body.content.find((c) => c.type === 'text/html')?.value ?? '',
        attachments: body.attachments ?? [],
      });
      res.writeHead(202, { 'x-message-id': `sendgrid-e2e-${arrived.length}` }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrived,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The approved eTA of the traveller of `orderId` (issue 35: the desk reads it and refuses another traveller's), as
 * the order's detail names them, read with a staff member's `token`.
 */
export async function approvalPdf(baseUrl: string, token: string, orderId: string): Promise<Buffer> {
  const response = await fetch(`${baseUrl}/api/admin/get-orders-details/${orderId}`, {
    headers: { authorization: token },
  });
  const { data } = (await response.json()) as { data: Record<string, string | null> };
  return approvalOf({
    surname: data.passport_surname || data.surname || '',
    givenNames: data.passport_first_name || data.first_name || '',
    passportNumber: data.passport_number ?? '',
  });
}
