/** Loopback networking helpers: free ports and HTTP(S) health probes. */
import fs from 'node:fs';
import https from 'node:https';
import http from 'node:http';
import { freeLoopbackPort } from '../../lib/core/loopbackPort.js';
import { setTimeout as sleep } from 'node:timers/promises';

/** A free TCP port on 127.0.0.1, outside the kernel's ephemeral range (lib/core/loopbackPort.ts says why). */
export function freePort(): Promise<number> {
  return freeLoopbackPort();
}

/** TLS material for probing the apiserver as admin (file paths); omitted = do not verify the server. */
export interface TlsFiles {
  ca: string;
  cert: string;
  key: string;
}

/**
 * GETs `url` once with a 2 s timeout.
 * @returns the HTTP status and body, or undefined on connection errors
 */
export function probe(url: string, tls?: TlsFiles): Promise<{ status: number; body: string } | undefined> {
  return new Promise((resolve) => {
    const opts: https.RequestOptions = { timeout: 2000 };
    if (url.startsWith('https:')) {
      if (tls) {
        opts.ca = fs.readFileSync(tls.ca);
        opts.cert = fs.readFileSync(tls.cert);
        opts.key = fs.readFileSync(tls.key);
      } else {
        opts.rejectUnauthorized = false;
      }
    }
    const get = url.startsWith('https:') ? https.get : http.get;
    const req = get(url, opts, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', () => resolve(undefined));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(undefined));
  });
}

/**
 * Polls `url` every 250 ms until it answers 200.
 * @param isDead checked between polls; when it returns true, waiting stops early (the process died)
 * @returns true when healthy within `timeoutMs`, false on timeout or death
 */
export async function waitHealthy(
  url: string,
  timeoutMs: number,
  tls?: TlsFiles,
  isDead: () => boolean = () => false,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await probe(url, tls))?.status === 200) return true;
    if (isDead()) return false;
    await sleep(250);
  }
  return false;
}
