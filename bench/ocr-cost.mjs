// What reading an approval costs (issue 35): `npm run build:server && node bench/ocr-cost.mjs`. Reads, through the
// server's own worker pool (the same caps as an upload), a text PDF, a scanned PNG and a scan saved as a PDF of an
// approval drawn here, each several times, and prints the milliseconds per document and the process's memory. The
// first OCR of a pool thread also loads the English model; it is shown apart.
import { createRequire } from 'node:module';
import path from 'node:path';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { WorkerPool } from '../apps/server/dist/lib/workers/worker-pool.js';

const require = createRequire(import.meta.url);
GlobalFonts.registerFromPath(
  path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf', 'DejaVuSans.ttf'),
  'DejaVu Sans',
);
const LINES = [
  'Government of Canada',
  'Electronic Travel Authorization (eTA) approval',
  'Application number: V301234567',
  'Family name: LOVELACE',
  'Given name(s): ADA',
  'Passport number: LV1234567',
  'Date of approval: 2026-11-20',
  'eTA expiry date: November 19, 2031',
];

/** The letter as pixels; `scale` 1 is a screenshot, 2 an A4 page scanned at 300 dpi (2480 x 3508). */
function png(scale = 1) {
  const canvas = scale === 1 ? createCanvas(1240, 620) : createCanvas(2480, 3508);
  const g = canvas.getContext('2d');
  g.fillStyle = 'white';
  g.fillRect(0, 0, canvas.width, canvas.height);
  g.fillStyle = 'black';
  g.font = `${28 * scale}px "DejaVu Sans"`;
  LINES.forEach((line, i) => g.fillText(line, 60 * scale, (70 + i * 66) * scale));
  return canvas.toBuffer('image/png');
}

async function textPdf() {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  LINES.forEach((line, i) => page.drawText(line, { x: 60, y: 720 - i * 28, size: 14, font }));
  return Buffer.from(await doc.save());
}

async function scannedPdf() {
  const doc = await PDFDocument.create();
  const image = await doc.embedPng(png());
  doc.addPage([620, 310]).drawImage(image, { x: 0, y: 0, width: 620, height: 310 });
  return Buffer.from(await doc.save());
}

const pool = new WorkerPool({ timeoutMs: 20_000, maxMemoryMb: 512, threads: 1 });
const read = pool.function(
  new URL('../apps/server/dist/lib/document-reading/read-document.js', import.meta.url),
  'readDocumentText',
);
const mib = (bytes) => (bytes / 1024 / 1024).toFixed(0);
const RUNS = 10;

for (const [kind, content, type] of [
  ['text PDF', await textPdf(), 'application/pdf'],
  ['scanned PNG (1240 x 620)', png(), 'image/png'],
  ['scan saved as PDF', await scannedPdf(), 'application/pdf'],
  ['A4 scan at 300 dpi (2480 x 3508 PNG)', png(2), 'image/png'],
]) {
  const times = [];
  let method = '';
  for (let i = 0; i < RUNS; i += 1) {
    const started = performance.now();
    const result = await read(content, type);
    times.push(performance.now() - started);
    method = result.method;
  }
  const [first, ...rest] = times;
  rest.sort((a, b) => a - b);
  console.log(
    `${kind}: ${method}; first ${first.toFixed(0)} ms, then median ${rest[Math.floor(rest.length / 2)].toFixed(0)} ms, ` +
      `max ${rest.at(-1).toFixed(0)} ms; process RSS ${mib(process.memoryUsage().rss)} MiB`,
  );
}
await pool.close();
