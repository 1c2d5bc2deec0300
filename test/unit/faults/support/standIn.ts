/**
 * A stand-in for the API server behind a proxy under test (the fault front, the bench's front of simulated clusters):
 * an HTTPS server on a free loopback port with the PKI of a fresh local control plane (infra/local/pki.ts), asking
 * for the client's certificate, and the TLS material the proxy forwards with. Not a kube-apiserver: the tests using
 * it check the proxies' paths, bodies and faults.
 */
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ensurePki } from '../../../../infra/local/pki.js';
import type { ProxyTls } from '../../../faults/proxy.js';

/** A running stand-in. */
export interface StandIn {
  /** Its URL, `https://127.0.0.1:<port>`. */
  url: string;
  /** The proxy's TLS: the CA, the stand-in's serving pair, the admin client pair. */
  tls: ProxyTls;
  /** Closes every connection and removes the PKI folder. */
  close: () => Promise<void>;
}

/**
 * Start a stand-in answering with `handler`.
 * @param prefix of its temporary PKI folder's name
 * @throws Error when openssl fails (./pki.ts)
 */
export async function startStandIn(
  prefix: string,
  handler: (req: http.IncomingMessage, res: http.ServerResponse) => void,
): Promise<StandIn> {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  const pki = await ensurePki(dir);
  const tls: ProxyTls = {
    ca: readFileSync(pki.caCert),
    serverCert: readFileSync(pki.serverCert),
    serverKey: readFileSync(pki.serverKey),
    clientCert: readFileSync(pki.adminCert),
    clientKey: readFileSync(pki.adminKey),
  };
  const server = https.createServer(
    { ca: tls.ca, cert: tls.serverCert, key: tls.serverKey, requestCert: true, rejectUnauthorized: true },
    handler,
  );
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    tls,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
