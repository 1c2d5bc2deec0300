/**
 * The recorded outcome of the optional builds (infra/reference/buildStatus.ts): which failures are the registry
 * being unreachable (CI tolerates the hollow run then) and which are real, on the messages go and npm print.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import {
  buildStatusFile,
  classifyBuildFailure,
  failureSummary,
  readBuildStatus,
  withBuildStatus,
} from '../../../infra/reference/buildStatus.js';

const KRUISE =
  'go mod download github.com/openkruise/kruise@v1.9.0 failed: github.com/openkruise/kruise@v1.9.0';

describe('classifyBuildFailure', () => {
  it.each([
    // go mod download -json's Error, as infra/local/build.ts goModDownload reports it
    [
      `${KRUISE}: Get "https://proxy.invalid/github.com/openkruise/kruise/@v/v1.9.0.info": dial tcp: lookup proxy.invalid on 10.255.255.53:53: no such host`,
    ],
    [
      `${KRUISE}: Get "http://127.0.0.1:9/github.com/openkruise/kruise/@v/v1.9.0.info": dial tcp 127.0.0.1:9: connect: connection refused`,
    ],
    [
      `${KRUISE}: Get "https://proxy.golang.org/github.com/openkruise/kruise/@v/v1.9.0.info": dial tcp 142.250.74.113:443: i/o timeout`,
    ],
    [
      `${KRUISE}: reading https://proxy.golang.org/github.com/openkruise/kruise/@v/v1.9.0.zip: 503 Service Unavailable`,
    ],
    [
      `${KRUISE}: reading https://proxy.golang.org/github.com/openkruise/kruise/@v/v1.9.0.info: 429 Too Many Requests`,
    ],
    // the dependencies' download (run()'s message: the command, then go's output tail)
    [
      'go mod download exited with 1:\ngo: k8s.io/api@v0.30.0: Get "https://proxy.golang.org/k8s.io/api/@v/v0.30.0.zip": net/http: TLS handshake timeout',
    ],
    [
      'go mod download exited with 1:\nverifying k8s.io/api@v0.30.0: k8s.io/api@v0.30.0: Get "https://sum.golang.org/lookup/k8s.io/api@v0.30.0": dial tcp: lookup sum.golang.org: server misbehaving',
    ],
    [
      'go: github.com/x/y@v1.0.0: read tcp 10.0.0.2:51234->142.250.74.113:443: read: connection reset by peer',
    ],
    [
      "go: git ls-remote -q origin: fatal: unable to access 'https://github.com/x/y/': Could not resolve host: github.com",
    ],
    // npm
    [
      'npm error code ENOTFOUND\nnpm error syscall getaddrinfo\nnpm error network request to https://registry.npmjs.org/tsx failed, reason: getaddrinfo ENOTFOUND registry.npmjs.org',
    ],
    [
      'npm ERR! code EAI_AGAIN\nnpm ERR! request to https://registry.npmjs.org/zod failed, reason: getaddrinfo EAI_AGAIN',
    ],
    ['npm error code ECONNREFUSED'],
  ])('registry unreachable: %s', (message) => {
    expect(classifyBuildFailure(message)).toBe('registry-unreachable');
  });

  it.each([
    [`${KRUISE}: module lookup disabled by GOPROXY=off`],
    [
      `${KRUISE.replace(/v1\.9\.0/g, 'v9.9.9')}: reading https://proxy.golang.org/github.com/openkruise/kruise/@v/v9.9.9.info: 404 Not Found\n\tserver response: not found: github.com/openkruise/kruise@v9.9.9: invalid version: unknown revision v9.9.9`,
    ],
    [`${KRUISE}: reading https://proxy.golang.org/github.com/openkruise/kruise/@v/v1.9.0.info: 410 Gone`],
    [
      'go mod download exited with 1:\nverifying github.com/x/y@v1.0.0: checksum mismatch\n\tdownloaded: h1:abc=\n\tgo.sum:     h1:def=\n\nSECURITY ERROR',
    ],
    [
      'go build -v -p=1 -buildvcs=false -ldflags=-s -w -o /c/kruise-manager . exited with 1:\n# github.com/openkruise/kruise/pkg/x\npkg/x/y.go:12:2: undefined: Foo',
    ],
    ['cannot run go: spawn go ENOENT'],
    ['npm error code E404\nnpm error 404 Not Found - GET https://registry.npmjs.org/no-such-package'],
  ])('a real failure: %s', (message) => {
    expect(classifyBuildFailure(message)).toBe('build-failed');
  });
});

describe('failureSummary', () => {
  it('picks the network line of an unreachable registry', () => {
    expect(
      failureSummary(
        'go mod download exited with 1:\ngo: downloading k8s.io/api v0.30.0\ngo: k8s.io/api@v0.30.0: Get "https://proxy.golang.org/x": dial tcp: lookup proxy.golang.org: no such host',
      ),
    ).toBe(
      'go: k8s.io/api@v0.30.0: Get "https://proxy.golang.org/x": dial tcp: lookup proxy.golang.org: no such host',
    );
  });

  it("else the first line that is not only the command's exit; a long line keeps both ends", () => {
    expect(failureSummary('go build x exited with 1:\n# pkg\npkg/y.go:1:2: undefined: Foo')).toBe('# pkg');
    expect(failureSummary(`${'a'.repeat(150)}${'b'.repeat(150)}\nmore`, 11)).toBe('aaaaa…bbbbb');
  });
});

describe('withBuildStatus', () => {
  let cache: string;
  const saved = process.env.KRUISELESS_CACHE;
  beforeEach(() => {
    cache = fs.mkdtempSync(path.join(os.tmpdir(), 'build-status-'));
    process.env.KRUISELESS_CACHE = cache;
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.KRUISELESS_CACHE;
    else process.env.KRUISELESS_CACHE = saved;
    fs.rmSync(cache, { recursive: true, force: true });
  });

  it('records building while the build runs, then built', async () => {
    expect(readBuildStatus('openkruise')).toBeUndefined();
    const result = await withBuildStatus('openkruise', 'v1.9.0', async () => {
      expect(readBuildStatus('openkruise')).toMatchObject({ outcome: 'building', version: 'v1.9.0' });
      return { version: 'v1.9.0' };
    });
    expect(result).toEqual({ version: 'v1.9.0' });
    expect(buildStatusFile('openkruise')).toBe(path.join(cache, 'build-status', 'openkruise.json'));
    const status = readBuildStatus('openkruise');
    expect(status).toEqual({ component: 'openkruise', version: 'v1.9.0', outcome: 'built', at: status?.at });
    expect(Date.parse(status?.at ?? '')).not.toBeNaN();
  });

  it('records a failure with its message and cause, and throws it on', async () => {
    const error = new Error(
      `${KRUISE}: Get "https://proxy.invalid/x": dial tcp: lookup proxy.invalid: no such host`,
    );
    await expect(withBuildStatus('kubectl-kruise', 'v1.2.2', () => Promise.reject(error))).rejects.toBe(
      error,
    );
    expect(readBuildStatus('kubectl-kruise')).toMatchObject({
      component: 'kubectl-kruise',
      version: 'v1.2.2',
      outcome: 'failed',
      error: error.message,
      cause: 'registry-unreachable',
    });
  });

  it('records a fallback as built, with why the version asked for was not', async () => {
    await withBuildStatus('openkruise', 'v1.9.0', () =>
      Promise.resolve({
        version: 'v1.8.2',
        fallbackReason: `${KRUISE}: module lookup disabled by GOPROXY=off`,
      }),
    );
    expect(readBuildStatus('openkruise')).toMatchObject({
      outcome: 'built',
      version: 'v1.9.0',
      fallback: 'v1.8.2',
      cause: 'build-failed',
    });
  });

  it('reads a file that is not a status as none', () => {
    fs.mkdirSync(path.dirname(buildStatusFile('openkruise')), { recursive: true });
    fs.writeFileSync(buildStatusFile('openkruise'), '{"outcome":"great"}');
    expect(readBuildStatus('openkruise')).toBeUndefined();
  });
});
