/**
 * The headers a proxy of the local stack passes on from one hop to the next (the emulated EKS endpoint,
 * ./aws/eksAuthProxy.ts; the test and bench fronts, test/faults/upstream.ts): either hop may be HTTP/2 or HTTP/1.1.
 */
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import type http2 from 'node:http2';

/**
 * Per-connection headers (RFC 9110 §7.6.1, RFC 9113 §8.2.2), which each hop sets for itself, and `host`, which the
 * next request sets.
 */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'host',
  'http2-settings',
]);

/**
 * `headers` less HTTP/2's pseudo-headers (`:path`, `:status`, …), the hop-by-hop ones and `host` ({@link HOP_BY_HOP}),
 * and less absent values: what may go on to the next hop, whichever HTTP version either hop speaks.
 */
export function forwardableHeaders(
  headers: IncomingHttpHeaders | http2.IncomingHttpHeaders,
): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined || k.startsWith(':') || HOP_BY_HOP.has(k)) continue;
    out[k] = v;
  }
  return out;
}
