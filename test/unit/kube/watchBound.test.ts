/**
 * A watch has a bounded lifetime on the client too (lib/kube/watch.ts; review finding 14): a connection the server
 * never ends — a stalled watch — is aborted `CLIENT_GRACE_MS` after `timeoutSeconds`, inside the watch function's
 * time, instead of running past the Lambda's kill with the checkpoint lease held. That bound counts from the response,
 * when the server's `timeoutSeconds` starts: a response slow to come is no stall (it aborted healthy watches in the
 * fleet bench), and one that never comes is given up at the same bound from the request.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { KubeConfig } from '@kubernetes/client-node/dist/config.js';
import { KubeApiError } from '../../../lib/kube/errors.js';
import { CLIENT_GRACE_MS, watchOnce } from '../../../lib/kube/watch.js';
import { fakeApiServer, type FakeApiServer } from './support/fakeApiServer.js';

const servers: FakeApiServer[] = [];
afterEach(async () => {
  for (const srv of servers.splice(0)) await srv.close();
});

describe('watchOnce on a stalled connection', () => {
  it('is aborted CLIENT_GRACE_MS after timeoutSeconds, so the pump ends before the watch function does', async () => {
    // the pump (lib/source/pump.ts): deadline = start + remaining − 8 s, each watch at most the time to the deadline
    // rounded up to a second, and aborted by its signal at the deadline; without the signal, still inside the function
    const lambdaTimeoutMs = 70_000;
    expect(lambdaTimeoutMs - 8_000 + 1_000 + CLIENT_GRACE_MS).toBeLessThan(lambdaTimeoutMs);

    const srv = await fakeApiServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"7"}}}\n'); // then silence
    });
    servers.push(srv);
    const kc = new KubeConfig();
    kc.loadFromClusterAndUser(
      { name: 'fake', server: srv.url, skipTLSVerify: true },
      { name: 'u', token: 't' },
    );
    const started = Date.now();
    const watched = watchOnce(
      kc,
      '/api/v1/pods',
      { timeoutSeconds: 1, allowBookmarks: true },
      () => undefined,
    );
    await expect(watched).rejects.toBeInstanceOf(KubeApiError);
    await expect(watched).rejects.toMatchObject({ reason: 'Timeout', statusCode: 0 });
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(1000 + CLIENT_GRACE_MS - 100);
    expect(elapsed).toBeLessThan(1000 + CLIENT_GRACE_MS + 2000);
  }, 20_000);

  it('counts from the response: a watch answered late still runs its timeoutSeconds and ends normally', async () => {
    const srv = await fakeApiServer((_req, res) => {
      // answered later than the grace (inside the wait for a response), then the server's own 2 s watch: the
      // bound counted from the request (2 s + grace) would have cut it before its end
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"9"}}}\n');
        setTimeout(() => res.end(), 2000);
      }, CLIENT_GRACE_MS + 1000);
    });
    servers.push(srv);
    const watched = watchOnce(
      fakeConfig(srv.url),
      '/api/v1/pods',
      { timeoutSeconds: 2, allowBookmarks: true },
      () => undefined,
    );
    await expect(watched).resolves.toEqual({ resourceVersion: '9', gone: false });
  }, 20_000);

  it('gives up on a response that never comes at timeoutSeconds + grace, with its own message', async () => {
    const srv = await fakeApiServer(() => undefined); // never answers
    servers.push(srv);
    const started = Date.now();
    const watched = watchOnce(
      fakeConfig(srv.url),
      '/api/v1/pods',
      { timeoutSeconds: 1, allowBookmarks: true },
      () => undefined,
    );
    await expect(watched).rejects.toMatchObject({
      reason: 'Timeout',
      statusCode: 0,
      message: expect.stringContaining('no response to the watch within 6 s') as unknown,
    });
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(1000 + CLIENT_GRACE_MS - 100);
    expect(elapsed).toBeLessThan(1000 + CLIENT_GRACE_MS + 2000);
  }, 20_000);
});

/** A kubeconfig for the fake server. */
function fakeConfig(url: string): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromClusterAndUser({ name: 'fake', server: url, skipTLSVerify: true }, { name: 'u', token: 't' });
  return kc;
}
