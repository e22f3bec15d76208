import { ROBOTS_AGENT } from './robots-cache.js';

/**
 * The product token robots.txt groups, `<meta name=…>` and X-Robots-Tag are matched against:
 * the first token of the User-Agent the crawl sends ("MyBot/1.0 (+https://…)" is `MyBot`, as
 * RFC 9309 has crawlers name themselves and Scrapy's ROBOTSTXT_USER_AGENT defaults to USER_AGENT),
 * or in a browser-like "Mozilla/5.0 (compatible; MyBot/1.0; …)" the compatible one. A user agent
 * with no token (letters, digits, '_' and '-') keeps `focuscrawl`.
 */
export function robotsAgentOf(userAgent: string): string {
  const compatible = /\(compatible;\s*([A-Za-z0-9_-]+)/i.exec(userAgent);
  if (/^mozilla\//i.test(userAgent) && compatible) return compatible[1]!.toLowerCase();
  const first = /^\s*([A-Za-z0-9_-]+)/.exec(userAgent);
  return first ? first[1]!.toLowerCase() : ROBOTS_AGENT;
}
