/** deploy/nginx.conf for one machine: servers on 127.0.0.1 ports, listening on `listenPort`, files under `prefix`. */
export function localNginxConfig(options: {
  prefix: string;
  listenPort: number;
  serverPorts: number[];
}): Promise<string>;
