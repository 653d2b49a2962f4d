// What an uploaded file really is, judged by its content (magic bytes, file-type), never by its name or the
// browser's claimed type; and the original name reduced to harmless metadata.
import { fileTypeFromBuffer } from 'file-type';
import { ACCEPTED_DOCUMENT_TYPES, UPLOAD_FIELDS, UPLOAD_MESSAGES, type AcceptedDocumentType } from '@eta/contracts';
import { AppError } from '../../lib/errors.js';

export interface DocumentType {
  contentType: AcceptedDocumentType;
  extension: string;
}

const accepted = (mime: string | undefined): mime is AcceptedDocumentType =>
  mime !== undefined && Object.hasOwn(ACCEPTED_DOCUMENT_TYPES, mime);

/** A PDF or an image by content; anything else (a script named .pdf, an archive, an empty file) is refused. */
export async function detectDocumentType(content: Buffer): Promise<DocumentType> {
  if (content.length === 0) {
    throw new AppError('VALIDATION_FAILED', UPLOAD_MESSAGES.fileEmpty, {
      fields: { [UPLOAD_FIELDS.file]: UPLOAD_MESSAGES.fileEmpty },
    });
  }
  const detected = await fileTypeFromBuffer(content);
  if (!accepted(detected?.mime)) {
    const what = detected ? `a ${detected.ext.toUpperCase()} file (${detected.mime})` : 'not a PDF or an image';
    const message = `This file is ${what}. Please upload the approved document as a PDF or an image.`;
    throw new AppError('UNSUPPORTED_FILE', message, { fields: { [UPLOAD_FIELDS.file]: message } });
  }
  return { contentType: detected.mime, extension: ACCEPTED_DOCUMENT_TYPES[detected.mime] };
}

/** Control characters, path and shell-special characters, and the bidi controls that disguise an extension. */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f<>:"/\\|?*\u200e\u200f\u202a-\u202e\u2066-\u2069\ufffd]/g;
const MAX_STEM = 100;

/**
 * The original file name as metadata only: its last path segment, without characters that could mislead a
 * person or a program, at most 100 characters, with the extension of what the file really is.
 * "../../etc/passwd.pdf" → "passwd.pdf"; "scan.png" holding a PDF → "scan.pdf".
 */
export function sanitizeFileName(original: string, extension: string): string {
  // Round trip through UTF-8: a lone surrogate becomes U+FFFD, which is then dropped.
  const lastSegment = Buffer.from(original, 'utf8').toString('utf8').split(/[/\\]/).pop() ?? '';
  const cleaned = lastSegment.normalize('NFC').replace(UNSAFE, '').replace(/\s+/g, ' ').trim();
  const stem = cleaned
    .replace(/\.[^.]*$/, '')
    .replace(/^[.\s]+|[.\s]+$/g, '')
    .slice(0, MAX_STEM)
    .trim();
  return `${stem || 'document'}.${extension}`;
}
