// Loopback stand-ins the browser tests' server talks to instead of the internet, and the files they upload.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PDFDocument, StandardFonts } from 'pdf-lib';

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

/** A one-page PDF naming the order, as an approved eTA would. */
export async function approvalPdf(orderId: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([612, 792]).drawText(`Electronic Travel Authorization approved: ${orderId}`, { x: 72, y: 700, font });
  return Buffer.from(await doc.save());
}
