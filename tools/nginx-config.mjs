// deploy/nginx.conf made runnable on one machine (npm run cluster, the bench's two-server run): the upstream servers
// and the listening address replaced, and every file nginx writes kept under `prefix` instead of the system's.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The configuration text; throws when deploy/nginx.conf no longer holds what is replaced. */
export async function localNginxConfig({ prefix, listenPort, serverPorts }) {
  let conf = await readFile(path.join(root, 'deploy/nginx.conf'), 'utf8');
  const replace = (from, to) => {
    if (!conf.includes(from)) throw new Error(`deploy/nginx.conf no longer contains "${from}"`);
    conf = conf.replace(from, to);
  };
  replace('server server1:3000', `server 127.0.0.1:${serverPorts[0]}`);
  replace('server server2:3000', `server 127.0.0.1:${serverPorts[1]}`);
  replace('listen 80;', `listen 127.0.0.1:${listenPort};`);
  replace('worker_processes auto;', `worker_processes 1;\npid ${prefix}/nginx.pid;\nerror_log stderr warn;`);
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((kind) => `  ${kind}_temp_path ${prefix}/${kind};`)
    .join('\n');
  replace('http {', `http {\n${temp}`);
  return conf;
}
