/** The timeouts a network error's words name. */
export interface ErrorTimeouts {
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
}

/**
 * What a network error code means, in the words a crawl log reader needs (undici's own messages
 * repeat the code, "ECONNREFUSED: connect ECONNREFUSED", or name only the library's timer,
 * "Headers Timeout Error"); null for codes left as they are. HttpFetcher puts the code and the
 * address after them in brackets.
 */
export function networkErrorWords(code: string, t: ErrorTimeouts): string | null {
  switch (code) {
    case 'ECONNREFUSED': return 'connection refused';
    case 'ECONNRESET': return 'connection reset by the server';
    case 'EPIPE': return 'connection closed while sending the request';
    case 'ETIMEDOUT': return 'connection timed out';
    case 'EHOSTUNREACH': return 'no route to host';
    case 'ENETUNREACH': return 'network unreachable';
    case 'ENOTFOUND': return 'no such host name';
    case 'EAI_AGAIN': return 'temporary DNS failure';
    case 'UND_ERR_CONNECT_TIMEOUT': return `no connection within ${t.connectTimeoutMs} ms`;
    case 'UND_ERR_HEADERS_TIMEOUT': return `no response headers within ${t.headersTimeoutMs} ms`;
    case 'UND_ERR_BODY_TIMEOUT': return `the body stalled: nothing received for ${t.bodyTimeoutMs} ms`;
    case 'UND_ERR_SOCKET': return 'connection closed by the server';
    case 'UND_ERR_CLOSED': return 'connection closed';
    default: return null;
  }
}
