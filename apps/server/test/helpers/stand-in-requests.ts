// What every loopback stand-in of a provider's HTTP API reads from a request: its whole body, and the parts of a
// multipart/form-data body as the SDKs write them (name, file name, type, bytes).
import type http from 'node:http';

export interface MultipartPart {
  name: string;
  filename?: string;
  type?: string;
  bytes: Buffer;
}

export function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export function parseMultipart(body: Buffer, contentType: string): MultipartPart[] {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType);
  if (!boundary) throw new Error('multipart without a boundary');
  const marker = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const parts: MultipartPart[] = [];
  let start = body.indexOf(marker);
  while (start !== -1) {
    const next = body.indexOf(marker, start + marker.length);
    if (next === -1) break;
    const part = body.subarray(start + marker.length + 2, next - 2);
    const split = part.indexOf('\r\n\r\n');
    const head = part.subarray(0, split).toString('utf8');
    const filename = /filename="([^"]*)"/.exec(head)?.[1];
    const type = /content-type:\s*([^\r\n]+)/i.exec(head)?.[1];
    parts.push({
      name: /name="([^"]*)"/.exec(head)?.[1] ?? '',
      ...(filename !== undefined ? { filename } : {}),
      ...(type ? { type } : {}),
      bytes: part.subarray(split + 4),
    });
    start = next;
  }
  return parts;
}
