// Which images a PDF can carry as they are: PDF viewers draw JPEG and PNG; anything else (GIF, WebP, HEIC)
// is named in the pack instead of drawn.
export type PdfImageKind = 'png' | 'jpeg';

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The kind of image by its first bytes (never by a file name or a declared content type). */
export function pdfImageKind(bytes: Uint8Array): PdfImageKind | undefined {
  if (PNG.every((b, i) => bytes[i] === b)) return 'png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  return undefined;
}

/** Whether the bytes are a PDF file (its header may follow a little junk, as readers allow). */
export const isPdf = (bytes: Uint8Array): boolean => Buffer.from(bytes.subarray(0, 1024)).includes('%PDF-');
