/** host[:port] -> hostname; IPv6 literals keep their brackets. */
export function hostnameOf(host: string): string {
  const i = host.lastIndexOf(':');
  return i > 0 && !host.endsWith(']') ? host.slice(0, i) : host;
}

/**
 * A host name's `www.` twin (example.org and www.example.org), which most sites redirect to one
 * way or the other: one site. Null for an address, a single label, or a twin that would be one.
 */
export function wwwTwin(hostname: string): string | null {
  const named = hostname.includes('.') && !/^[\d.]+$/.test(hostname) && !hostname.startsWith('[');
  if (!named) return null;
  const twin = hostname.startsWith('www.') ? hostname.slice(4) : `www.${hostname}`;
  return twin.includes('.') ? twin : null;
}
