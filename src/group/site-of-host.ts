import type { GroupSite } from './group-inputs.js';
import { hostnameOf, wwwTwin } from '../engine/www-twin.js';

/**
 * Which site of the group a host's pages belong to (its `host`): its own, or the site whose `www.`
 * twin it is, on the same port (north.edu and www.north.edu), which the crawl's scope follows a
 * root to when it redirects there. Another port is another site (two apps on one name); a host of
 * no site is its own.
 */
export function siteOfHost(sites: readonly GroupSite[]): (host: string) => string {
  const owner = new Map(sites.map((s) => [s.host, s.host]));
  for (const s of sites) {
    const name = hostnameOf(s.host);
    const twin = wwwTwin(name);
    const twinHost = twin === null ? null : twin + s.host.slice(name.length);
    if (twinHost !== null && !owner.has(twinHost)) owner.set(twinHost, s.host);
  }
  return (host) => owner.get(host) ?? host;
}
