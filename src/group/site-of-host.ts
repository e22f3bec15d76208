import type { GroupSite } from './group-inputs.js';
import { hostnameOf, wwwTwin } from '../engine/www-twin.js';

/**
 * Which site of the group a host's pages belong to (its `host`): its own, or, for a site with a
 * name, its `www.` twin's and its name on another port (http:// and https://), which the crawl's
 * scope follows a root to when it redirects there. A host of no site is its own.
 */
export function siteOfHost(sites: readonly GroupSite[]): (host: string) => string {
  const exact = new Set(sites.map((s) => s.host));
  const byName = new Map<string, string>();
  for (const s of sites) if (wwwTwin(hostnameOf(s.host))) byName.set(hostnameOf(s.host), s.host);
  for (const s of sites) {
    const twin = wwwTwin(hostnameOf(s.host));
    if (twin && !byName.has(twin)) byName.set(twin, s.host);
  }
  return (host) => (exact.has(host) ? host : (byName.get(hostnameOf(host)) ?? host));
}
