import { execFileSync, spawnSync } from 'node:child_process';

/** The installed version of a Debian package, or null when it is not installed. */
export function installedVersion(pkg: string): string | null {
  try {
    const out = execFileSync('dpkg-query', ['-W', '-f=${Status}\t${Version}', pkg], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const [status, version] = out.split('\t');
    return status?.endsWith(' installed') ? (version ?? null) : null;
  } catch {
    return null;
  }
}

/**
 * Installs a documentation package with apt-get when it is missing (the sites are built from what
 * Debian ships; nothing is downloaded any other way). Returns the installed version.
 */
export function ensurePackage(pkg: string): string {
  const have = installedVersion(pkg);
  if (have) return have;
  process.stderr.write(`realweb: package ${pkg} is not installed; running apt-get install -y --no-install-recommends ${pkg}\n`);
  const run = (args: string[]) => spawnSync('apt-get', args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  let r = run(['install', '-y', '--no-install-recommends', pkg]);
  if (r.status !== 0) {
    // A machine whose package lists were never fetched knows no package at all.
    process.stderr.write(`realweb: apt-get install ${pkg} failed; running apt-get update once and trying again\n`);
    run(['update']);
    r = run(['install', '-y', '--no-install-recommends', pkg]);
  }
  const v = installedVersion(pkg);
  if (r.status !== 0 || !v) {
    throw new Error(`cannot install ${pkg} with apt-get (exit ${r.status ?? r.error?.message}); install it by hand (as root: apt-get install ${pkg}) and run again`);
  }
  return v;
}
