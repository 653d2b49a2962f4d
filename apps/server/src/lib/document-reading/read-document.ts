// The text of an uploaded approval (issue 35), read in the worker pool (lib/workers) under its time and memory caps:
// a PDF's own text with unpdf (pdf.js); a PDF without text (a scan saved as PDF) through the images on its first pages;
// a PNG or JPEG by OCR with tesseract.js and the English model shipped in @tesseract.js-data/eng (nothing is fetched
// at run time). One tesseract worker is kept per pool thread, so only a thread's first OCR pays for loading the model.
import { createRequire } from 'node:module';
import path from 'node:path';
import { createWorker, type Worker } from 'tesseract.js';
import { extractImages, extractText, getDocumentProxy } from 'unpdf';
import { encodePng } from '../png.js';

export interface DocumentText {
  text: string;
  /** How it was read: the PDF's own text, OCR, or nothing readable. */
  method: 'text' | 'ocr' | 'none';
  /** Time spent in OCR, ms (0 when none ran). */
  ocrMs: number;
}

/** Pages of a PDF whose images are read: an approval is one or two pages; a long scan is not read to its end. */
const OCR_PAGES = 3;
/** A PDF's own text with fewer letters than this is taken for a scan. */
const MIN_LETTERS = 20;

const require = createRequire(import.meta.url);
/** The folder of eng.traineddata.gz in @tesseract.js-data/eng (the fast integer model: quick, and enough for print). */
const LANG_PATH = path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');

let ocrWorker: Promise<Worker> | undefined;

function ocr(): Promise<Worker> {
  ocrWorker ??= createWorker('eng', 1, { langPath: LANG_PATH, cacheMethod: 'none', gzip: true });
  return ocrWorker;
}

const letters = (text: string) => (text.match(/\p{L}/gu) ?? []).length;

async function recognise(image: Buffer): Promise<{ text: string; ms: number }> {
  const started = performance.now();
  const worker = await ocr();
  const { data } = await worker.recognize(image);
  return { text: data.text, ms: performance.now() - started };
}

async function readPdf(content: Uint8Array): Promise<DocumentText> {
  const pdf = await getDocumentProxy(content);
  try {
    const { text } = await extractText(pdf, { mergePages: true });
    if (letters(text) >= MIN_LETTERS) return { text, method: 'text', ocrMs: 0 };
    // A scan saved as a PDF: its pages are images. The biggest image of each of the first pages is read.
    const found: string[] = [];
    let ocrMs = 0;
    for (let page = 1; page <= Math.min(pdf.numPages, OCR_PAGES); page += 1) {
      const images = await extractImages(pdf, page);
      const biggest = images.sort((a, b) => b.width * b.height - a.width * a.height)[0];
      if (!biggest) continue;
      const read = await recognise(encodePng(biggest));
      found.push(read.text);
      ocrMs += read.ms;
    }
    const scanned = found.join('\n');
    return { text: scanned, method: ocrMs > 0 ? 'ocr' : 'none', ocrMs };
  } finally {
    await pdf.destroy();
  }
}

/** The text of a document (a PDF, PNG or JPEG, as judged by its content). Runs in the worker pool. */
export async function readDocumentText(content: Uint8Array, contentType: string): Promise<DocumentText> {
  if (contentType === 'application/pdf') return readPdf(new Uint8Array(content));
  const read = await recognise(Buffer.from(content));
  return { text: read.text, method: 'ocr', ocrMs: read.ms };
}
