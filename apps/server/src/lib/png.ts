// A minimal PNG encoder: images the server draws itself (the demo data's signature), and the raw pixels pdf.js decodes
// from a scanned PDF for OCR (lib/document-reading). 8 bits per channel, one IDAT chunk, no filter: enough for a
// signature or a page; anything richer belongs to an image library.
import { crc32, deflateSync } from 'node:zlib';

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** PNG colour types by channels per pixel: grey, RGB, RGBA. */
const COLOR_TYPES: Record<number, number> = { 1: 0, 3: 2, 4: 6 };

/** A PNG of raw 8-bit pixels, row after row, `channels` per pixel (1 grey, 3 RGB, 4 RGBA). */
export function encodePng(image: { data: ArrayBufferView; width: number; height: number; channels: number }): Buffer {
  const colorType = COLOR_TYPES[image.channels];
  if (colorType === undefined) throw new Error(`a PNG cannot hold ${image.channels} channels per pixel`);
  const stride = image.width * image.channels;
  const raw = Buffer.alloc((stride + 1) * image.height);
  const pixels = Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength);
  for (let y = 0; y < image.height; y += 1) {
    raw[y * (stride + 1)] = 0; // filter: none
    pixels.copy(raw, y * (stride + 1) + 1, y * stride, (y + 1) * stride);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(image.width, 0);
  header.writeUInt32BE(image.height, 4);
  header[8] = 8; // bit depth
  header[9] = colorType;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A greyscale PNG of `width` × `height`, each pixel's grey level (0 black … 255 white) from `shade`. */
export function greyscalePng(width: number, height: number, shade: (x: number, y: number) => number): Buffer {
  const data = new Uint8Array(width * height);
  for (let y = 0; y < height; y += 1) for (let x = 0; x < width; x += 1) data[y * width + x] = shade(x, y);
  return encodePng({ data, width, height, channels: 1 });
}
