// A real S3 API on 127.0.0.1 (s3rver) for one test file, with one bucket, and a record of the requests it was sent
// (s3rver keeps content type and x-amz-meta-* but not the encryption asked for, so a test reads that here).
import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
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

export interface LoopbackS3 {
  bucket: string;
  endpoint: string;
  /** The environment an operator would set for this bucket (credentials aside). */
  env: Record<string, string>;
  /** S3Config as loadConfig reads it from `env`. */
  config: S3Config;
  requests: { method: string; url: string; headers: IncomingHttpHeaders }[];
  /** The keys in the bucket, as an operator listing it would see them. */
  listKeys(): Promise<string[]>;
  close(): Promise<void>;
}

export async function startLoopbackS3(bucket = 'eta-documents'): Promise<LoopbackS3> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'eta-s3-'));
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const requests: LoopbackS3['requests'] = [];
  server.httpServer.on('request', (req: { method?: string; url?: string; headers: IncomingHttpHeaders }) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const env = {
    DOCUMENTS_STORE: 's3',
    S3_BUCKET: bucket,
    AWS_REGION: 'us-east-1',
    AWS_ENDPOINT_URL_S3: endpoint,
    S3_FORCE_PATH_STYLE: 'true',
  };
  const client = new S3Client({
    region: 'us-east-1',
    endpoint,
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
    listKeys: async () => {
      const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
      return (listed.Contents ?? []).map((o) => o.Key!).sort();
    },
    close: async () => {
      client.destroy();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
