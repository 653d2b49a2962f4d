// An upload is judged by its bytes, and its name is kept only as harmless metadata.
import { describe, expect, it } from 'vitest';
import { detectDocumentType, sanitizeFileName } from './document-file.js';

const PNG_1x1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const JPEG_START = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]);

describe('detectDocumentType', () => {
  it('accepts a PDF and any image by their magic bytes', async () => {
    expect(
      await detectDocumentType(Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64')),
    ).toEqual({ contentType: 'image/gif', extension: 'gif' });
    expect(await detectDocumentType(Buffer.from('%PDF-1.7\n%\xe2\xe3\n'))).toEqual({
      contentType: 'application/pdf',
      extension: 'pdf',
    });
    expect(await detectDocumentType(PNG_1x1)).toEqual({ contentType: 'image/png', extension: 'png' });
    expect(await detectDocumentType(JPEG_START)).toEqual({ contentType: 'image/jpeg', extension: 'jpg' });
  });

  it('refuses text, executables, archives and empty files, saying what they are', async () => {
    await expect(detectDocumentType(Buffer.from('<?php system($_GET["c"]); ?>'))).rejects.toMatchObject({
      code: 'UNSUPPORTED_FILE',
      message: expect.stringMatching(/not a PDF or an image/),
    });
    await expect(detectDocumentType(Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'))).rejects.toMatchObject({
      code: 'UNSUPPORTED_FILE',
    });
    await expect(detectDocumentType(Buffer.from('PK\x03\x04\x14\x00\x00\x00', 'latin1'))).rejects.toMatchObject({
      code: 'UNSUPPORTED_FILE',
    });
    await expect(detectDocumentType(Buffer.alloc(0))).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});

describe('sanitizeFileName', () => {
  it.each([
    ['approval.pdf', 'pdf', 'approval.pdf'],
    ['../../etc/passwd', 'pdf', 'passwd.pdf'],
    ['C:\\Users\\me\\scan.jpeg', 'jpg', 'scan.jpg'],
    ['report.exe', 'pdf', 'report.pdf'],
    ['invoice\u202Efdp.exe', 'pdf', 'invoicefdp.pdf'],
    ['a\u0000b\r\nc.pdf', 'pdf', 'abc.pdf'],
    ['   ', 'png', 'document.png'],
    ['.hidden', 'pdf', 'document.pdf'],
    ['Zoë  Müller.PDF', 'pdf', 'Zoë Müller.pdf'],
    [`${'x'.repeat(300)}.pdf`, 'pdf', `${'x'.repeat(100)}.pdf`],
  ])('%j → %s', (original, extension, expected) => {
    expect(sanitizeFileName(original, extension)).toBe(expected);
  });
});
