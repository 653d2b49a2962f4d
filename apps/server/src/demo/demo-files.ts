// The files behind the demo orders: one signature image and one approved "eTA" that says plainly it is a demo.
// They go through the document store like real ones, once per load; every demo order points at the same two keys
// (orders.customer_sign, and a documents row for each order whose approval mail was sent), so the portal
// download, Resend, the signature on the detail page and both defence packs work on demo data.
import type { StoredDocument, DocumentStore } from '../lib/storage/document-store.js';
import { greyscalePng } from '../lib/png.js';
import { PdfBuilder } from '../lib/pdf/pdf-builder.js';

export interface DemoFiles {
  signatureKey: string;
  document: StoredDocument;
}

/** A signature-like scribble: a run of looped letters (a prolate cycloid) that trails off, in dark ink on white. */
export function demoSignaturePng(width = 360, height = 120): Buffer {
  const points: [number, number][] = [];
  const loops = 6;
  for (let i = 0; i <= 4000; i += 1) {
    const t = (i / 4000) * loops * 2 * Math.PI;
    const progress = i / 4000;
    const x = 30 + ((width - 90) * t) / (loops * 2 * Math.PI) - 16 * Math.sin(t);
    const y = height * 0.55 - (22 + 10 * Math.sin(progress * 5)) * Math.cos(t) * (1 - 0.5 * progress) - 14 * progress;
    points.push([x, y]);
  }
  for (let i = 0; i <= 600; i += 1) points.push([width - 70 + (i / 600) * 55, height * 0.72 - (i / 600) * 6]);
  const ink = new Float32Array(width * height).fill(255);
  for (const [px, py] of points) {
    for (let dy = -2; dy <= 2; dy += 1) {
      for (let dx = -2; dx <= 2; dx += 1) {
        const x = Math.round(px + dx);
        const y = Math.round(py + dy);
        if (x < 0 || y < 0 || x >= width || y >= height) continue;
        const shade = Math.min(255, 25 + 70 * Math.hypot(dx, dy));
        ink[y * width + x] = Math.min(ink[y * width + x]!, shade);
      }
    }
  }
  return greyscalePng(width, height, (x, y) => ink[y * width + x]!);
}

/** A one-page PDF that looks like an approval notice and says on every line that it is a demo. */
export async function demoApprovalPdf(): Promise<Buffer> {
  const pdf = new PdfBuilder({
    title: 'DEMO - not a real eTA',
    author: 'eTA Desk demo data',
    subject: 'Demonstration document: not an Electronic Travel Authorization',
  });
  pdf.title('DEMO DOCUMENT - NOT A REAL eTA', 'eTA Desk demo data');
  pdf.paragraph(
    'This file stands in for an approved Electronic Travel Authorization (eTA) in eTA Desk’s demonstration data. ' +
      'It was not issued by the Government of Canada, authorises no travel and belongs to no real person.',
  );
  pdf.facts([
    ['Document', 'Demonstration approval notice'],
    ['Issued by', 'eTA Desk demo data (not IRCC)'],
    ['Valid for travel', 'No'],
  ]);
  pdf.paragraph(
    'In a real installation staff upload the approved eTA from Immigration, Refugees and Citizenship Canada on the ' +
      'order’s page; the customer then downloads it from the tracking portal.',
    { muted: true },
  );
  return pdf.toBytes({ text: 'DEMO - not a real eTA' });
}

export async function storeDemoFiles(store: DocumentStore): Promise<DemoFiles> {
  const signature = await store.put(demoSignaturePng(), { extension: 'png' });
  const document = await store.put(await demoApprovalPdf(), { extension: 'pdf' });
  return { signatureKey: signature.key, document };
}
