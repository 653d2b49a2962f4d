// A logo's size in pixels is read from its own header: a JPEG's frame header wherever its segments put it, a PNG's
// IHDR; a file cut short before it is refused, as is anything that is not PNG or JPEG.
import { describe, expect, it } from 'vitest';
import { greyscalePng } from '../../lib/png.js';
import { checkLogo } from './site-logo.js';

/** A JPEG's markers up to its frame header (SOFn), as cameras and exporters write them. */
function jpegHeader(frame: number, width: number, height: number): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, ...Buffer.from('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  const exifPadding = Buffer.concat([Buffer.from([0xff, 0xe1, 0x00, 0x0a]), Buffer.alloc(8, 0x41)]);
  const sof = Buffer.from([0xff, frame, 0x00, 0x11, 8, height >> 8, height & 255, width >> 8, width & 255, 3]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, exifPadding, sof, Buffer.alloc(9), Buffer.from([0xff, 0xd9])]);
}

describe('checkLogo', () => {
  it('reads a baseline and a progressive JPEG past the segments before their frame header', async () => {
    await expect(checkLogo(jpegHeader(0xc0, 240, 80))).resolves.toEqual({
      contentType: 'image/jpeg',
      extension: 'jpg',
      width: 240,
      height: 80,
    });
    await expect(checkLogo(jpegHeader(0xc2, 1024, 512))).resolves.toMatchObject({ width: 1024, height: 512 });
  });

  it('reads a PNG and refuses one larger than 4096 pixels', async () => {
    await expect(checkLogo(greyscalePng(300, 100, () => 0))).resolves.toMatchObject({
      contentType: 'image/png',
      width: 300,
      height: 100,
    });
    const huge = greyscalePng(16, 16, () => 0);
    huge.writeUInt32BE(5000, 16);
    await expect(checkLogo(huge)).rejects.toThrow('This one is 5000 × 16.');
  });

  it('refuses a JPEG cut short before its frame header', async () => {
    await expect(checkLogo(jpegHeader(0xc0, 240, 80).subarray(0, 30))).rejects.toMatchObject({
      code: 'UNREADABLE_DOCUMENT',
      message: 'This JPG image cannot be read: it is damaged or cut short. Please export the logo again.',
    });
  });

  it('refuses a WebP (not every mail program shows it)', async () => {
    const webp = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 '), Buffer.alloc(20)]);
    await expect(checkLogo(webp)).rejects.toMatchObject({
      code: 'UNSUPPORTED_FILE',
      message: 'This file is a WEBP file (image/webp). The logo must be a PNG or JPEG image.',
    });
  });
});
