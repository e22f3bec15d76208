import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface RunningNginx {
  stop(): void;
  /** CPU seconds (user + system) used so far by the nginx master and its workers. */
  cpuSeconds(): number;
}

/** Clock ticks per second of /proc/PID/stat times (USER_HZ, 100 on Linux). */
const TICKS = 100;

function cpuOfTree(root: number): number {
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    // Fields after the command name (which may hold spaces): state ppid ... utime(14) stime(15).
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(entry) === root || Number(f[1]) === root) ticks += Number(f[11]) + Number(f[12]);
  }
  return ticks / TICKS;
}

/**
 * Runs Debian's nginx (apt-get install nginx-light) on 127.0.0.1:port serving `root`, with one
 * worker so the crawler keeps the other core.
 */
export async function startNginx(root: string, port: number, work: string): Promise<RunningNginx> {
  const which = spawnSync('sh', ['-c', 'command -v nginx || ls /usr/sbin/nginx']);
  if (which.status !== 0) throw new Error('nginx is not installed: apt-get install nginx-light');
  mkdirSync(work, { recursive: true });
  const conf = join(work, 'nginx.conf');
  writeFileSync(
    conf,
    `daemon off;
worker_processes 1;
pid ${join(work, 'nginx.pid')};
error_log ${join(work, 'error.log')} warn;
events { worker_connections 4096; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  keepalive_timeout 60s;
  types { text/html html; text/plain txt; }
  client_body_temp_path ${work}/body; proxy_temp_path ${work}/proxy; fastcgi_temp_path ${work}/fcgi;
  uwsgi_temp_path ${work}/uwsgi; scgi_temp_path ${work}/scgi;
  server {
    listen 127.0.0.1:${port};
    root ${root};
    location = /robots.txt { default_type text/plain; }
    location / { default_type text/html; try_files $uri $uri.html $uri/index.html =404; }
  }
}
`,
  );
  const child = spawn(which.stdout.toString().trim().split('\n')[0]!, ['-c', conf, '-p', work], { stdio: 'inherit' });
  for (let i = 0; i < 100; i++) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/robots.txt`);
      if (res.ok) return { stop: () => child.kill('SIGTERM'), cpuSeconds: () => cpuOfTree(child.pid!) };
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`nginx did not start on port ${port}; see ${join(work, 'error.log')}`);
}
