// What an uploaded logo really is, judged by its content (file-type's magic bytes, then the image's own header for
// its size in pixels), never by its name or the browser's claimed type. Only PNG and JPEG pass (contracts LOGO_TYPES:
// an SVG can carry script, and mail programs do not all show SVG or WebP).
import { fileTypeFromBuffer } from 'file-type';
import { LANDING_SITE_LIMITS, LANDING_SITE_MESSAGES, LOGO_FIELDS, LOGO_TYPES, type LogoType } from '@eta/contracts';
import { AppError } from '../../lib/errors.js';

export interface CheckedLogo {
  contentType: LogoType;
  extension: (typeof LOGO_TYPES)[LogoType];
  width: number;
  height: number;
}

const refuse = (
  code: 'VALIDATION_FAILED' | 'UNSUPPORTED_FILE' | 'UNREADABLE_DOCUMENT' | 'PAYLOAD_TOO_LARGE',
  message: string,
) => new AppError(code, message, { fields: { [LOGO_FIELDS.file]: message } });

const isLogoType = (mime: string | undefined): mime is LogoType =>
  mime !== undefined && Object.hasOwn(LOGO_TYPES, mime);

/** SVG is text, so file-type does not name it; said in words, as it is the format a designer most often sends. */
const looksLikeSvg = (content: Buffer): boolean => /<svg[\s>]/i.test(content.subarray(0, 4096).toString('latin1'));

/** Width and height from a PNG's IHDR chunk, which must come first. */
function pngSize(content: Buffer): { width: number; height: number } | null {
  if (content.length < 24 || content.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: content.readUInt32BE(16), height: content.readUInt32BE(20) };
}

/** Markers of a JPEG frame header (SOF0-3, 5-7, 9-11, 13-15): the image's size follows its precision byte. */
const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

/** Width and height from a JPEG's frame header, walking its segments from the start; null if none is whole. */
function jpegSize(content: Buffer): { width: number; height: number } | null {
  let at = 2;
  while (at + 4 <= content.length) {
    if (content[at] !== 0xff) return null;
    const marker = content[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2; // markers without a length
      continue;
    }
    const length = content.readUInt16BE(at + 2);
    if (length < 2) return null;
    if (SOF.has(marker)) {
      if (at + 9 > content.length) return null;
      return { height: content.readUInt16BE(at + 5), width: content.readUInt16BE(at + 7) };
    }
    at += 2 + length;
  }
  return null;
}

/** The logo's type and size in pixels, or the refusal in words the Admin can act on (the field is `logo`). */
export async function checkLogo(content: Buffer): Promise<CheckedLogo> {
  if (content.length === 0) throw refuse('VALIDATION_FAILED', LANDING_SITE_MESSAGES.logoRequired);
  if (content.length > LANDING_SITE_LIMITS.logoBytes)
    throw refuse('PAYLOAD_TOO_LARGE', LANDING_SITE_MESSAGES.logoTooLarge);
  const detected = await fileTypeFromBuffer(content);
  if (!isLogoType(detected?.mime)) {
    const what = detected
      ? `a ${detected.ext.toUpperCase()} file (${detected.mime})`
      : looksLikeSvg(content)
        ? 'an SVG image, which can carry script and which most mail programs do not show'
        : 'not an image';
    throw refuse('UNSUPPORTED_FILE', `This file is ${what}. ${LANDING_SITE_MESSAGES.logoType}`);
  }
  const size = detected.mime === 'image/png' ? pngSize(content) : jpegSize(content);
  if (!size) {
    throw refuse(
      'UNREADABLE_DOCUMENT',
      `This ${LOGO_TYPES[detected.mime].toUpperCase()} image cannot be read: it is damaged or cut short. Please export the logo again.`,
    );
  }
  const { logoMinPixels: min, logoMaxPixels: max } = LANDING_SITE_LIMITS;
  if (size.width < min || size.height < min || size.width > max || size.height > max) {
    throw refuse(
      'VALIDATION_FAILED',
      `${LANDING_SITE_MESSAGES.logoPixels} This one is ${size.width} × ${size.height}.`,
    );
  }
  return { contentType: detected.mime, extension: LOGO_TYPES[detected.mime], ...size };
}
