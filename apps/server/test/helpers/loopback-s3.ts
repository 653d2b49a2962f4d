// A real S3 API on 127.0.0.1 (s3rver) for one test file, with one bucket, and a record of the requests it was sent
// (s3rver keeps content type and x-amz-meta-* but not the encryption asked for, so a test reads that here). Requests
// reach s3rver through a relay that can fail them as a broken bucket would (issue 32): answer 500 with S3's own XML
// error, or take the request and never answer (before or after s3rver has stored it), so the real SDK meets the fault.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { loadConfig, type S3Config } from '../../src/lib/config.js';

// The SDK warns once per process that it will need Node 22 from 2027: the server says so once in its log, while here
// every test file's worker would repeat the same seven lines.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/** The keys s3rver accepts (its built-in account). */
export const LOOPBACK_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/**
 * How the bucket fails the requests it is sent (all, or those of `methods`): `error` answers 500 InternalError;
 * `hang` reads the request and never answers; `hang-after-storing` lets s3rver do it, then never answers;
 * `stall` starts s3rver's answer (status, headers, its first bytes) and never sends the rest.
 */
export interface S3Fault {
  answer: 'error' | 'hang' | 'hang-after-storing' | 'stall';
  methods?: string[];
}

export interface LoopbackS3 {
  bucket: string;
  endpoint: string;
  /** The environment an operator would set for this bucket (credentials aside). */
  env: Record<string, string>;
  /** S3Config as loadConfig reads it from `env`. */
  config: S3Config;
  requests: { method: string; url: string; headers: IncomingHttpHeaders }[];
  /** From now on, fail requests as `fault` says; null: answer them all again. */
  fail(fault: S3Fault | null): void;
  /** The keys in the bucket, as an operator listing it would see them (s3rver itself, whatever the fault). */
  listKeys(): Promise<string[]>;
  close(): Promise<void>;
}

const internalError = () =>
  '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>InternalError</Code>' +
  '<Message>We encountered an internal error. Please try again.</Message>' +
  `<RequestId>${randomBytes(8).toString('hex').toUpperCase()}</RequestId></Error>`;

export async function startLoopbackS3(bucket = 'eta-documents'): Promise<LoopbackS3> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'eta-s3-'));
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port: s3rverPort } = await server.run();
  const requests: LoopbackS3['requests'] = [];
  let fault: S3Fault | null = null;
  // Answers held back for ever (until close): a bucket that hangs.
  const held = new Set<http.ServerResponse>();
  const relay = http.createServer((req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    const failing = fault && (!fault.methods || fault.methods.includes(req.method ?? '')) ? fault : null;
    if (failing?.answer === 'error') {
      req.resume();
      req.once('end', () =>
        res.writeHead(500, { 'content-type': 'application/xml', connection: 'close' }).end(internalError()),
      );
      return;
    }
    if (failing?.answer === 'hang') {
      req.resume();
      held.add(res);
      return;
    }
    const forwarded = http.request(
      { host: '127.0.0.1', port: s3rverPort, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        if (failing) held.add(res);
        if (failing?.answer === 'hang-after-storing') {
          answer.resume();
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        if (failing?.answer === 'stall') {
          answer.once('data', (first: Buffer) => {
            res.write(first.subarray(0, 1024));
            answer.resume();
          });
          return;
        }
        answer.pipe(res);
      },
    );
    forwarded.on('error', () => res.destroy());
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(relay.address() as AddressInfo).port}`;
  const env = {
    DOCUMENTS_STORE: 's3',
    S3_BUCKET: bucket,
    AWS_REGION: 'us-east-1',
    AWS_ENDPOINT_URL_S3: endpoint,
    S3_FORCE_PATH_STYLE: 'true',
  };
  const client = new S3Client({
    region: 'us-east-1',
    endpoint: `http://127.0.0.1:${s3rverPort}`,
    forcePathStyle: true,
    credentials: LOOPBACK_CREDENTIALS,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return {
    bucket,
    endpoint,
    env,
    config: loadConfig(env).s3!,
    requests,
    fail: (next) => {
      fault = next;
    },
    listKeys: async () => {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      return (listed.Contents ?? []).map((o) => o.Key!).sort();
    },
    close: async () => {
      client.destroy();
      for (const res of held) res.destroy();
      relay.closeAllConnections();
      await new Promise((resolve) => relay.close(resolve));
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
