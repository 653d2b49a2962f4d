// Reading an untrusted PDF within bounds (issue 22: a 1 MB document whose streams inflate to ~1 GB stopped the
// server for 25 s when a defence pack appended it). The desk decodes only what appending a document needs: its
// pages' content streams (pdf-lib's page embedder inflates them; images and fonts are copied as they are). So a
// document is accepted when pdf-lib can parse it, it has 1 … MAX_PAGES pages and at most MAX_OBJECTS objects,
// and its pages' content streams inflate to at most MAX_CONTENT_BYTES all together, inflated by zlib with that
// bound as its output limit, so a bomb is stopped at the bound, never inflated in full. Streams in a format pdf-lib
// would decode without such a bound (LZW, run-length) are refused. Time and memory are capped by the worker pool
// this runs in (lib/workers).
import { inflateSync } from 'node:zlib';
import { PDFArray, PDFDocument, PDFName, PDFRawStream, PDFRef, type PDFObject } from 'pdf-lib';

export const PDF_LIMITS = {
  maxPages: 300,
  maxObjects: 200_000,
  /** Inflated size of all pages' content streams together. */
  maxContentBytes: 64 * 2 ** 20,
} as const;

export type PdfInspection =
  | { readable: true; document: PDFDocument; pageCount: number; contentBytes: number }
  /** `overLimits`: it is beyond the bounds; otherwise it is only unreadable here (damaged, encrypted). */
  | { readable: false; reason: string; overLimits: boolean };

/** What an upload needs to know, without the parsed document (it crosses back from a worker thread). */
export type PdfCheck = { readable: true; pageCount: number } | { readable: false; reason: string; overLimits: boolean };

/** Filters whose output can be counted as it is made (zlib's maxOutputLength), or that only shrink. */
const BOUNDED = new Set(['FlateDecode', 'Fl', 'ASCIIHexDecode', 'AHx', 'ASCII85Decode', 'A85']);

const overLimits = (reason: string): PdfInspection => ({ readable: false, reason, overLimits: true });
const unreadable = (reason: string): PdfInspection => ({ readable: false, reason, overLimits: false });

function filtersOf(stream: PDFRawStream): string[] {
  const filter = stream.dict.get(PDFName.of('Filter'));
  if (filter instanceof PDFName) return [filter.decodeText()];
  if (filter instanceof PDFArray) return filter.asArray().map((f) => (f instanceof PDFName ? f.decodeText() : '?'));
  return [];
}

/** The page's content streams (one, or an array of them). */
function contentStreams(document: PDFDocument, contents: PDFObject | undefined): PDFRawStream[] {
  const resolve = (o: PDFObject | undefined) => (o instanceof PDFRef ? document.context.lookup(o) : o);
  const value = resolve(contents);
  const items = value instanceof PDFArray ? value.asArray().map(resolve) : [value];
  return items.filter((s): s is PDFRawStream => s instanceof PDFRawStream);
}

/** What a stream inflates to, within `budget` bytes; undefined when it would exceed it. */
function inflatedSize(stream: PDFRawStream, budget: number): number | undefined {
  const filters = filtersOf(stream);
  if (!filters.some((f) => f === 'FlateDecode' || f === 'Fl')) return stream.contents.length;
  try {
    // Flate comes first in practice; with ASCII filters before it the raw size bounds the text anyway.
    return inflateSync(stream.contents, { maxOutputLength: Math.max(1, budget) }).length;
  } catch (err) {
    if (err instanceof RangeError || (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return undefined;
    return 0; // a damaged stream: a viewer shows what it can, and so does the pack
  }
}

export async function inspectPdf(bytes: Uint8Array, limits = PDF_LIMITS): Promise<PdfInspection> {
  let document: PDFDocument;
  try {
    document = await PDFDocument.load(bytes, { updateMetadata: false });
  } catch (err) {
    const encrypted = /encrypt/i.test(String((err as Error).message));
    return unreadable(encrypted ? 'it is encrypted' : 'it is damaged or not a PDF');
  }
  const objects = document.context.enumerateIndirectObjects().length;
  if (objects > limits.maxObjects) {
    return overLimits(
      `it has ${objects.toLocaleString('en-US')} objects (at most ${limits.maxObjects.toLocaleString('en-US')})`,
    );
  }
  let pages;
  try {
    pages = document.getPages();
  } catch {
    return unreadable('its page tree is damaged');
  }
  if (pages.length === 0) return unreadable('it has no pages');
  if (pages.length > limits.maxPages) return overLimits(`it has ${pages.length} pages (at most ${limits.maxPages})`);
  let contentBytes = 0;
  for (const page of pages) {
    for (const stream of contentStreams(document, page.node.get(PDFName.of('Contents')))) {
      const unbounded = filtersOf(stream).find((f) => !BOUNDED.has(f));
      if (unbounded) return overLimits(`its pages use a compression the desk does not open (${unbounded})`);
      const size = inflatedSize(stream, limits.maxContentBytes - contentBytes + 1);
      if (size === undefined || contentBytes + size > limits.maxContentBytes) {
        return overLimits(`its pages inflate to more than ${limits.maxContentBytes / 2 ** 20} MB`);
      }
      contentBytes += size;
    }
  }
  return { readable: true, document, pageCount: pages.length, contentBytes };
}

/** The upload's check (run in the worker pool): whether the PDF is within bounds, and how many pages it has. */
export async function checkPdf(bytes: Uint8Array): Promise<PdfCheck> {
  const inspection = await inspectPdf(bytes);
  return inspection.readable ? { readable: true, pageCount: inspection.pageCount } : inspection;
}
