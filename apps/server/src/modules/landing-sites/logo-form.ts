// Reads the logo form (multipart: the image as `logo`, the site's version as `version`) into plain values. The image
// is held in memory, at most LANDING_SITE_LIMITS.logoBytes; a form that says it is larger is refused before its body
// is read, and one that does not say is ended the moment the image passes the limit (the documents' upload does the
// same, documents/upload-form.ts).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type {} from '@fastify/multipart';
import { LANDING_SITE_LIMITS, LANDING_SITE_MESSAGES, LOGO_FIELDS } from '@eta/contracts';
import { AppError } from '../../lib/errors.js';
import { readFileCapped } from '../documents/upload-form.js';

export interface LogoForm {
  version?: string;
  file?: { filename: string; content: Buffer };
}

/** The parser's limits: one file and the version beside it. */
export const LOGO_FORM_LIMITS = {
  files: 1,
  fields: 2,
  parts: 4,
  fieldSize: 32,
  fieldNameSize: 32,
  fileSize: LANDING_SITE_LIMITS.logoBytes,
};

/** The version field and the parts' headers and boundaries, generously. */
const FORM_OVERHEAD_BYTES = 16 * 1024;

const tooLarge = () =>
  new AppError('PAYLOAD_TOO_LARGE', `${LANDING_SITE_MESSAGES.logoTooLarge} Nothing was changed.`, {
    fields: { [LOGO_FIELDS.file]: LANDING_SITE_MESSAGES.logoTooLarge },
  });

/** onRequest: a form whose Content-Length says it cannot fit is refused, and the connection closed, unread. */
export function refuseOversizeLogo(request: FastifyRequest, reply: FastifyReply): void {
  if (Number(request.headers['content-length'] ?? 0) > LANDING_SITE_LIMITS.logoBytes + FORM_OVERHEAD_BYTES) {
    reply.header('connection', 'close');
    throw tooLarge();
  }
}

function refusal(err: unknown): AppError {
  if (err instanceof AppError) return err;
  switch ((err as { code?: string }).code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooLarge();
    case 'FST_FILES_LIMIT':
      return new AppError('VALIDATION_FAILED', 'Please upload one logo at a time.');
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new AppError('VALIDATION_FAILED', 'The logo form has more fields than expected.');
    default:
      return new AppError('VALIDATION_FAILED', 'The upload arrived incomplete or malformed. Please try again.');
  }
}

export async function readLogoForm(request: FastifyRequest, reply: FastifyReply): Promise<LogoForm> {
  if (!request.isMultipart()) {
    throw new AppError('VALIDATION_FAILED', 'Send the logo as a form upload (multipart/form-data).');
  }
  const form: LogoForm = {};
  try {
    for await (const part of request.parts({ limits: LOGO_FORM_LIMITS })) {
      if (part.type === 'file') {
        if (part.fieldname !== LOGO_FIELDS.file || form.file) {
          part.file.resume();
          continue;
        }
        form.file = { filename: part.filename, content: await readFileCapped(part.file) };
      } else if (part.fieldname === LOGO_FIELDS.version && form.version === undefined) {
        form.version = String(part.value);
      }
    }
  } catch (err) {
    const refused = refusal(err);
    if (refused.code === 'PAYLOAD_TOO_LARGE') reply.header('connection', 'close');
    throw refused;
  }
  return form;
}
