// Reads the Upload Document form (spec §7: multipart orderId, email, uploadVisaDoc, mailServiceProvider) into
// plain values. The file is held in memory (at most MAX_UPLOAD_MB); every parser refusal becomes a clear 4xx.
// A form over the limit is refused before its body is read when it says its length, and the moment the file
// passes the limit otherwise; either refusal ends the connection, so the rest is never read (issue 22).
import type { FastifyReply, FastifyRequest } from 'fastify';
// The request's multipart methods (registered for the upload route in routes/admin/documents.routes.ts).
import type {} from '@fastify/multipart';
import { UPLOAD_FIELDS } from '@eta/contracts';
import { AppError } from '../../lib/errors.js';
import { assertStorableText } from '../../plugins/input.js';

export interface UploadForm {
  orderId?: string;
  email?: string;
  provider?: string;
  /** Send a document the desk could not match to the order, for this reason (issue 35). */
  sendAnywayReason?: string;
  /** 'true': the mail goes to the address in the box though it is not the order's. */
  confirmEmailChange?: string;
  file?: { filename: string; content: Buffer };
}

/** The parser's own limits: one file, a handful of short fields. The file size is the plugin's MAX_UPLOAD_MB. */
export const UPLOAD_FORM_LIMITS = { files: 1, fields: 8, parts: 10, fieldSize: 1024, fieldNameSize: 100 };

/** What a form may hold beside its file: the fields above with their part headers and boundaries, generously. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

const MiB = 1024 * 1024;

function fileTooLarge(maxUploadMb: number): AppError {
  return new AppError(
    'PAYLOAD_TOO_LARGE',
    `The file is larger than ${maxUploadMb} MB. Nothing was stored; please upload a smaller file.`,
    { fields: { [UPLOAD_FIELDS.file]: `The file must be at most ${maxUploadMb} MB.` } },
  );
}

/**
 * Refuses (onRequest, before any of the body is read) a form whose Content-Length says it cannot fit; the answer
 * closes the connection, so the client stops sending.
 */
export function refuseDeclaredOversize(request: FastifyRequest, reply: FastifyReply, maxUploadMb: number): void {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > maxUploadMb * MiB + FORM_OVERHEAD_BYTES) {
    reply.header('connection', 'close');
    throw fileTooLarge(maxUploadMb);
  }
}

const TEXT_FIELDS: Record<string, keyof Omit<UploadForm, 'file'>> = {
  [UPLOAD_FIELDS.orderId]: 'orderId',
  [UPLOAD_FIELDS.email]: 'email',
  [UPLOAD_FIELDS.provider]: 'provider',
  [UPLOAD_FIELDS.sendAnywayReason]: 'sendAnywayReason',
  [UPLOAD_FIELDS.confirmEmailChange]: 'confirmEmailChange',
};

function refusal(err: unknown, maxUploadMb: number): AppError {
  if (err instanceof AppError) return err;
  switch ((err as { code?: string }).code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return fileTooLarge(maxUploadMb);
    case 'FST_FILES_LIMIT':
      return new AppError('VALIDATION_FAILED', 'Please upload one file at a time.');
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new AppError('VALIDATION_FAILED', 'The upload form has more fields than expected.');
    default:
      // Busboy's words for a cut-off or malformed body ("Unexpected end of form", "Malformed part header").
      return new AppError('VALIDATION_FAILED', 'The upload arrived incomplete or malformed. Please try again.');
  }
}

/**
 * The file's bytes, ended the moment it passes the limit. The plugin's own toBuffer() reads on to the end of the
 * part (busboy drops what is over the limit but keeps parsing), so a 200 MB body would be read in full first.
 */
export async function readFileCapped(file: NodeJS.ReadableStream & { destroy(error?: Error): void }): Promise<Buffer> {
  file.once('limit', () =>
    file.destroy(Object.assign(new Error('file too large'), { code: 'FST_REQ_FILE_TOO_LARGE' })),
  );
  const chunks: Buffer[] = [];
  for await (const chunk of file) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function readUploadForm(
  request: FastifyRequest,
  reply: FastifyReply,
  maxUploadMb: number,
): Promise<UploadForm> {
  if (!request.isMultipart()) {
    throw new AppError('VALIDATION_FAILED', 'Send the document as a form upload (multipart/form-data).');
  }
  const form: UploadForm = {};
  try {
    for await (const part of request.parts({ limits: UPLOAD_FORM_LIMITS })) {
      if (part.type === 'file') {
        if (part.fieldname !== UPLOAD_FIELDS.file || form.file) {
          part.file.resume();
          continue;
        }
        form.file = { filename: part.filename, content: await readFileCapped(part.file) };
      } else {
        const key = TEXT_FIELDS[part.fieldname];
        if (!key || form[key] !== undefined) continue;
        if (part.valueTruncated) {
          throw new AppError('VALIDATION_FAILED', `${part.fieldname} is too long.`, {
            fields: { [part.fieldname]: 'is too long' },
          });
        }
        form[key] = String(part.value);
      }
    }
  } catch (err) {
    const refused = refusal(err, maxUploadMb);
    // The rest of an oversize body is not read: the answer ends the connection.
    if (refused.code === 'PAYLOAD_TOO_LARGE') reply.header('connection', 'close');
    throw refused;
  }
  // The file name needs no check here: it is only kept sanitized (document-file.ts).
  assertStorableText({ body: { orderId: form.orderId, email: form.email, mailServiceProvider: form.provider } });
  return form;
}
