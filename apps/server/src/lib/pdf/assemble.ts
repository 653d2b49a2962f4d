// Appending another PDF's pages to a document the server wrote (a defence pack's approved document). Each
// page is drawn whole, scaled a little inside a hairline frame so the footer band below it never covers its
// content, turned the way its page says it is displayed, and given the same footer as the pages before it.
import { degrees, PDFDocument, rgb, StandardFonts, type PDFEmbeddedPage, type PDFFont } from 'pdf-lib';
import { FOOTER_FROM_BOTTOM, FOOTER_SIZE } from './pdf-builder.js';

/** A PDF that could be opened within bounds (inspect.ts), ready to be appended. */
export interface OpenedPdf {
  readonly pageCount: number;
  readonly document: PDFDocument;
}

/** Height kept free under an appended page's content for the footer, and above it so its frame shows. */
const BAND_BELOW = 40;
const BAND_ABOVE = 16;
const SIDE = 54;
const FOOTER_COLOUR = rgb(0.32, 0.38, 0.43);
const FRAME_COLOUR = rgb(0.8, 0.82, 0.85);

interface Footer {
  text: string;
  pageNumber: number;
  totalPages: number;
}

/** Draws one embedded page, as displayed, scaled into a new page above the footer band, and its footer. */
function drawAppendedPage(
  target: PDFDocument,
  page: PDFEmbeddedPage,
  rotation: number,
  font: PDFFont,
  footer: Footer,
): void {
  const turned = rotation === 90 || rotation === 270;
  const width = turned ? page.height : page.width;
  const height = turned ? page.width : page.height;
  const out = target.addPage([width, height]);
  const scale = (height - BAND_BELOW - BAND_ABOVE) / height;
  const left = (width - width * scale) / 2;
  const bottom = BAND_BELOW;
  const w = page.width * scale;
  const h = page.height * scale;
  // A page's /Rotate turns it clockwise for display; drawing it turned by the same angle shows it as a
  // viewer would.
  const placement =
    rotation === 90
      ? { x: left, y: bottom + w, rotate: degrees(-90) }
      : rotation === 180
        ? { x: left + w, y: bottom + h, rotate: degrees(-180) }
        : rotation === 270
          ? { x: left + h, y: bottom, rotate: degrees(-270) }
          : { x: left, y: bottom, rotate: degrees(0) };
  out.drawPage(page, { ...placement, xScale: scale, yScale: scale });
  out.drawRectangle({
    x: left,
    y: bottom,
    width: width * scale,
    height: height * scale,
    borderColor: FRAME_COLOUR,
    borderWidth: 0.5,
  });
  const baseline = FOOTER_FROM_BOTTOM - FOOTER_SIZE * 0.8;
  const right = `Page ${footer.pageNumber} of ${footer.totalPages}`;
  out.drawText(footer.text, { x: SIDE, y: baseline, size: FOOTER_SIZE, font, color: FOOTER_COLOUR });
  out.drawText(right, {
    x: width - SIDE - font.widthOfTextAtSize(right, FOOTER_SIZE),
    y: baseline,
    size: FOOTER_SIZE,
    font,
    color: FOOTER_COLOUR,
  });
}

/**
 * The body (written by PdfBuilder with `pagesAfter` = the appendix's page count) followed by the appendix's
 * pages, numbered on from the body's last page.
 */
export async function appendPdf(body: Uint8Array, appendix: OpenedPdf, footer: string): Promise<Uint8Array> {
  const doc = await PDFDocument.load(body, { updateMetadata: false });
  const bodyPages = doc.getPageCount();
  const totalPages = bodyPages + appendix.pageCount;
  // The standard font speaks Latin-1 only; the footer is ours (order ids are ASCII), this only guards it.
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const text = footer.replace(/[^\x20-\x7e\u00a0-\u00ff]/g, '?');
  const source = appendix.document;
  const embedded = await doc.embedPdf(source, source.getPageIndices());
  embedded.forEach((page, i) => {
    const rotation = ((source.getPage(i).getRotation().angle % 360) + 360) % 360;
    drawAppendedPage(doc, page, rotation, font, { text, pageNumber: bodyPages + i + 1, totalPages });
  });
  // Object streams would be compressed once more by pdf-lib's JavaScript deflate: time for a few kilobytes.
  return doc.save({ useObjectStreams: false });
}
