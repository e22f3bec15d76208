import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import pg from 'pg';

/**
 * A PostgreSQL of a test's own (Debian's server binaries, a fresh cluster in a temporary
 * directory), so that killing it or configuring it disturbs no other test. PostgreSQL refuses to
 * run as root: as root the cluster belongs to the postgres user and its programs run as that user.
 * `tls`: the server also offers TLS, with a self-signed certificate for 127.0.0.1 made by openssl.
 */
export class OwnPostgres {
  readonly dir = mkdtempSync(`${tmpdir()}/fc-pg-`);
  readonly bin = `/usr/lib/postgresql/${readdirSync('/usr/lib/postgresql').sort().at(-1)}/bin`;
  #child: ChildProcess | null = null;
  readonly #tls: boolean;

  constructor(readonly port: number, opts: { tls?: boolean } = {}) {
    this.#tls = opts.tls === true;
    const owner = process.getuid?.() === 0 ? { uid: Number(execFileSync('id', ['-u', 'postgres']).toString()), gid: Number(execFileSync('id', ['-g', 'postgres']).toString()) } : null;
    if (owner) chownSync(this.dir, owner.uid, owner.gid);
    this.#run('initdb', ['-D', this.dir, '-A', 'trust', '-U', 'postgres', '--no-sync']);
    if (this.#tls) {
      execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=127.0.0.1', '-keyout', `${this.dir}/server.key`, '-out', `${this.dir}/server.crt`], { stdio: 'ignore' });
      // The server refuses a key others can read.
      chmodSync(`${this.dir}/server.key`, 0o600);
      if (owner) for (const f of ['server.key', 'server.crt']) chownSync(`${this.dir}/${f}`, owner.uid, owner.gid);
    }
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  #run(program: string, args: string[]): void {
    const [cmd, all] = process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', `${this.bin}/${program}`, ...args]] : [`${this.bin}/${program}`, args];
    execFileSync(cmd as string, all as string[], { stdio: 'ignore' });
  }

  async start(): Promise<void> {
    const args = ['-D', this.dir, '-p', String(this.port), '-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${this.dir}`, '-c', 'fsync=off'];
    if (this.#tls) args.push('-c', 'ssl=on', '-c', `ssl_cert_file=${this.dir}/server.crt`, '-c', `ssl_key_file=${this.dir}/server.key`);
    this.#child = process.getuid?.() === 0 ? spawn('runuser', ['-u', 'postgres', '--', `${this.bin}/postgres`, ...args], { stdio: 'ignore' }) : spawn(`${this.bin}/postgres`, args, { stdio: 'ignore' });
    for (let i = 0; i < 200; i++) {
      const c = new pg.Client(this.url);
      try {
        await c.connect();
        await c.end();
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    throw new Error(`PostgreSQL in ${this.dir} did not start`);
  }

  /** As a crash: no shutdown checkpoint, the next start recovers from the WAL. */
  crash(): void {
    this.#run('pg_ctl', ['-D', this.dir, 'stop', '-m', 'immediate']);
    this.#child = null;
  }

  stop(): void {
    if (this.#child) this.#run('pg_ctl', ['-D', this.dir, 'stop', '-m', 'fast']);
    this.#child = null;
    rmSync(this.dir, { recursive: true, force: true });
  }
}
