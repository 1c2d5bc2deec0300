/**
 * The EKS side of the functions' cluster access, in front of the local control plane: an HTTPS endpoint that
 * authenticates EKS bearer tokens (`k8s-aws-v1.<presigned STS GetCallerIdentity URL>`, lib/kube/eksToken.ts) as
 * EKS does — the caller is who STS says the signed request came from, and an access entry maps that role to
 * Kubernetes groups (infra/rbac/README.md) — and forwards the request to the API server as that user and those
 * groups (impersonation, with the local admin credentials). RBAC of infra/rbac then decides, as on EKS.
 * Not checked: the signature itself (moto's STS does not verify signatures). Like EKS's endpoint, it serves HTTP/2
 * (offered by ALPN) and HTTP/1.1, so the functions' watches share one connection per cluster here as they do on EKS
 * (lib/kube/http2Session.ts); requests go on to the API server over HTTP/1.1.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http2 from 'node:http2';
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { KubeConfig } from '@kubernetes/client-node';
import { EKS_TOKEN_PREFIX } from '../../kube/eksToken.js';
import { forwardableHeaders } from '../forwardHeaders.js';
import { sts, type AwsEndpoint } from './awsCall.js';

/** An EKS access entry: an IAM role and the Kubernetes groups its sessions get. */
export interface AccessEntry {
  roleArn: string;
  groups: string[];
}

/** Options of {@link startEksAuthProxy}. */
export interface EksAuthProxyOptions {
  /** The cluster behind the proxy (admin credentials, which may impersonate). */
  kubeconfig: string;
  /** The EKS cluster name tokens must be signed for (`x-k8s-aws-id`). */
  clusterName: string;
  /** The emulated STS. */
  ep: AwsEndpoint;
  accessEntries: AccessEntry[];
  /** Told about each request forwarded (not the refused ones). */
  observer?: ProxyObserver;
}

/** One forwarded request as an observer sees it. */
export interface ProxiedRequest {
  /** The Kubernetes user it is forwarded as (the caller's assumed-role ARN). */
  user: string;
  method: string;
  /** Path and query string, as sent (e.g. `/api/v1/pods?watch=true&resourceVersion=12`). */
  url: string;
  /** Epoch ms at which the proxy had authenticated it and sent it on. */
  forwardedAt: number;
  /** The caller's HTTP version: `2.0` (a stream of an HTTP/2 connection) or `1.1`. */
  httpVersion: string;
}

/**
 * Told when a request is forwarded and when its answer ends (for a watch: when the stream closes, from either
 * side). `npm run soak` times the functions' writes and open watches with it.
 */
export interface ProxyObserver {
  forwarded?(r: ProxiedRequest): void;
  /** `status` is the API server's (502 when it could not be reached); `at` is epoch ms. */
  ended?(r: ProxiedRequest, end: { status: number; at: number }): void;
}

/** The running proxy. */
export interface EksAuthProxy {
  /** `https://127.0.0.1:<port>` */
  endpoint: string;
  /** Base64 PEM of the proxy's certificate (it is its own CA), as `certificate-authority-data`. */
  caData: string;
  /** Requests forwarded per Kubernetes user. */
  requests: Map<string, number>;
  /** Tokens refused (401). */
  refused: () => number;
  close(): Promise<void>;
}

interface Identity {
  user: string;
  groups: string[];
  expiresAt: number;
}

async function selfSignedCert(): Promise<{ cert: string; key: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kruiseless-eks-'));
  try {
    await promisify(execFile)('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2',
      '-subj', '/CN=emulated-eks-endpoint', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'),
    ]); // prettier-ignore
    return {
      cert: fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8'),
      key: fs.readFileSync(path.join(dir, 'key.pem'), 'utf8'),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Who a token belongs to.
 * @returns the identity, or a reason for refusing it
 */
async function authenticate(
  token: string,
  opts: EksAuthProxyOptions,
): Promise<Identity | { refused: string }> {
  if (!token.startsWith(EKS_TOKEN_PREFIX)) return { refused: 'not an EKS token' };
  let url: URL;
  try {
    url = new URL(Buffer.from(token.slice(EKS_TOKEN_PREFIX.length), 'base64url').toString('utf8'));
  } catch {
    return { refused: 'token is not a presigned URL' };
  }
  const q = url.searchParams;
  if (q.get('Action') !== 'GetCallerIdentity') return { refused: 'not a GetCallerIdentity request' };
  if (!(q.get('X-Amz-SignedHeaders') ?? '').split(';').includes('x-k8s-aws-id'))
    return { refused: 'x-k8s-aws-id is not signed' };
  const date = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(q.get('X-Amz-Date') ?? '');
  if (!date) return { refused: 'no X-Amz-Date' };
  const signedAt = Date.UTC(+date[1], +date[2] - 1, +date[3], +date[4], +date[5], +date[6]);
  // aws-iam-authenticator accepts a token for 15 minutes after signing, whatever X-Amz-Expires says
  const expiresAt = signedAt + 15 * 60_000;
  if (expiresAt < Date.now()) return { refused: 'token expired' };
  const accessKeyId = (q.get('X-Amz-Credential') ?? '').split('/')[0];
  const who = await sts(
    { ...opts.ep, credentials: { accessKeyId, secretAccessKey: 'unchecked' } },
    'GetCallerIdentity',
    {},
  );
  const m = /^arn:aws:sts::(\d{12}):assumed-role\/([^/]+)\/(.+)$/.exec(who.Arn ?? '');
  if (!m) return { refused: `${who.Arn} is not an assumed role` };
  const roleArn = `arn:aws:iam::${m[1]}:role/${m[2]}`;
  const entry = opts.accessEntries.find((e) => e.roleArn === roleArn);
  if (!entry) return { refused: `no access entry for ${roleArn}` };
  return { user: who.Arn, groups: entry.groups, expiresAt };
}

/**
 * Start the proxy on a free loopback port.
 * @throws Error when openssl is missing or the kubeconfig cannot be read
 */
export async function startEksAuthProxy(opts: EksAuthProxyOptions): Promise<EksAuthProxy> {
  const kc = new KubeConfig();
  kc.loadFromFile(opts.kubeconfig);
  const upstream = new URL(kc.getCurrentCluster()?.server ?? '');
  const tls: https.RequestOptions = {};
  await kc.applyToHTTPSOptions(tls);
  const { cert, key } = await selfSignedCert();
  const cache = new Map<string, Identity>();
  const requests = new Map<string, number>();
  let refused = 0;

  const handle = async (
    req: IncomingMessage | http2.Http2ServerRequest,
    res: ServerResponse | http2.Http2ServerResponse,
  ) => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    let id = cache.get(token);
    if (!id || id.expiresAt < Date.now()) {
      const r = await authenticate(token, opts);
      if ('refused' in r) {
        refused++;
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Unauthorized', message: r.refused, code: 401 })); // prettier-ignore
        return;
      }
      id = r;
      cache.set(token, id);
    }
    requests.set(id.user, (requests.get(id.user) ?? 0) + 1);
    const seen: ProxiedRequest = {
      user: id.user,
      method: req.method ?? 'GET',
      url: req.url ?? '',
      forwardedAt: Date.now(),
      httpVersion: req.httpVersion,
    };
    let status = 502;
    opts.observer?.forwarded?.(seen);
    res.once('close', () => opts.observer?.ended?.(seen, { status, at: Date.now() }));
    const headers = forwardableHeaders(req.headers);
    delete headers.authorization;
    const up = https.request(
      {
        ...tls,
        hostname: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...headers, 'Impersonate-User': id.user, 'Impersonate-Group': id.groups },
      },
      (upRes) => {
        status = upRes.statusCode ?? 502;
        res.writeHead(status, forwardableHeaders(upRes.headers));
        upRes.pipe(res);
      },
    );
    up.on('error', (e) => {
      if (!res.headersSent) res.writeHead(502);
      res.end(e.message);
    });
    res.on('close', () => up.destroy());
    req.pipe(up);
  };

  const server = http2.createSecureServer({ cert, key, allowHTTP1: true }, (req, res) => {
    handle(req, res).catch((e: Error) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(e.message);
    });
  });
  // the server's close waits for its connections: both kinds are ended at close
  const sockets = new Set<{ destroy(): void }>();
  server.on('secureConnection', (s: { destroy(): void; once(e: 'close', f: () => void): void }) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    endpoint: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    caData: Buffer.from(cert).toString('base64'),
    requests,
    refused: () => refused,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        for (const s of sockets) s.destroy();
      }),
  };
}
