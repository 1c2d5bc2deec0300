/**
 * PKI for the local control plane, generated with the openssl command line (Debian package `openssl`):
 * a CA, the kube-apiserver serving certificate (SANs 127.0.0.1, localhost), an admin client certificate
 * (CN=admin, O=system:masters, so RBAC is bypassed) and the service-account signing key pair.
 */
import fs from 'node:fs';
import path from 'node:path';
import { run } from './build.js';

/** Absolute paths of the generated files. */
export interface Pki {
  dir: string;
  caCert: string;
  caKey: string;
  serverCert: string;
  serverKey: string;
  adminCert: string;
  adminKey: string;
  saKey: string;
  saPub: string;
}

/** Paths of the PKI files in `dir` (whether or not they exist yet). */
export function pkiPaths(dir: string): Pki {
  const p = (f: string): string => path.join(dir, f);
  return {
    dir,
    caCert: p('ca.crt'),
    caKey: p('ca.key'),
    serverCert: p('apiserver.crt'),
    serverKey: p('apiserver.key'),
    adminCert: p('admin.crt'),
    adminKey: p('admin.key'),
    saKey: p('sa.key'),
    saPub: p('sa.pub'),
  };
}

/**
 * Creates the PKI in `dir` unless every file already exists (certificates are valid for 10 years).
 * @throws Error when openssl is missing or fails (with its output)
 */
export async function ensurePki(dir: string): Promise<Pki> {
  const pki = pkiPaths(dir);
  const files = (Object.entries(pki) as [keyof Pki, string][]).filter(([k]) => k !== 'dir').map(([, v]) => v);
  if (files.every((f) => fs.existsSync(f))) return pki;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const ssl = (...args: string[]): Promise<string[]> => run('openssl', args, { cwd: dir });
  const days = '3650';
  const subj = '/CN=kruiseless-local-ca';
  await ssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    days,
    '-subj',
    subj,
    '-keyout',
    pki.caKey,
    '-out',
    pki.caCert,
  );
  await ssl('genrsa', '-out', pki.saKey, '2048');
  await ssl('rsa', '-in', pki.saKey, '-pubout', '-out', pki.saPub);
  await signed(
    'apiserver',
    '/CN=kube-apiserver',
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth',
  );
  await signed('admin', '/O=system:masters/CN=admin', 'extendedKeyUsage=clientAuth');
  return pki;

  async function signed(name: string, subject: string, ext: string): Promise<void> {
    const key = path.join(dir, `${name}.key`);
    const csr = path.join(dir, `${name}.csr`);
    const extFile = path.join(dir, `${name}.ext`);
    fs.writeFileSync(extFile, `${ext}\n`);
    await ssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', csr, '-subj', subject);
    await ssl(
      'x509',
      '-req',
      '-in',
      csr,
      '-CA',
      pki.caCert,
      '-CAkey',
      pki.caKey,
      '-CAcreateserial',
      '-days',
      days,
      '-out',
      path.join(dir, `${name}.crt`),
      '-extfile',
      extFile,
    );
  }
}
