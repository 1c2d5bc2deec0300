import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ephemeralLow, freeLoopbackPort, saysAddressInUse } from '../../../lib/core/loopbackPort.js';

/** A `random` that yields the given values in turn, then repeats the last one. */
function sequence(...values: number[]): () => number {
  let i = 0;
  return () => values[Math.min(i++, values.length - 1)];
}

/** The port `freeLoopbackPort` draws for `r` (its formula, for picking the value that lands on a given port). */
function draw(port: number): number {
  const high = ephemeralLow() - 1;
  return (port - 10000 + 0.5) / (high - 10000 + 1);
}

function listen(port: number): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(port, '127.0.0.1', () => resolve(srv));
  });
}

describe('freeLoopbackPort (lib/core/loopbackPort.ts)', () => {
  test('reads the ephemeral range from /proc, falling back to Linux default', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ports-'));
    fs.writeFileSync(path.join(dir, 'range'), '40000\t60999\n');
    fs.writeFileSync(path.join(dir, 'junk'), 'n/a\n');
    expect(ephemeralLow(path.join(dir, 'range'))).toBe(40000);
    expect(ephemeralLow(path.join(dir, 'junk'))).toBe(32768);
    expect(ephemeralLow(path.join(dir, 'missing'))).toBe(32768);
  });

  test('draws below the ephemeral range, where outgoing connections never take a port', async () => {
    const ports = await Promise.all(Array.from({ length: 20 }, () => freeLoopbackPort()));
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(10000);
      expect(port).toBeLessThan(ephemeralLow());
    }
  });

  test('skips a port another process listens on, and never hands out the same port twice', async () => {
    const taken = await listen(await freeLoopbackPort());
    const takenPort = (taken.address() as net.AddressInfo).port;
    try {
      const first = await freeLoopbackPort(sequence(draw(takenPort), draw(takenPort + 1)));
      expect(first).toBe(takenPort + 1);
      // the same draws again: takenPort is still bound, takenPort + 1 was handed out already
      const second = await freeLoopbackPort(
        sequence(draw(takenPort), draw(takenPort + 1), draw(takenPort + 2)),
      );
      expect(second).toBe(takenPort + 2);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  test('knows the bind failure of Go servers and werkzeug', () => {
    expect(
      saysAddressInUse(
        'E1201 run.go:72] "command failed" err="failed to create listener: failed to listen on 127.0.0.1:37573: listen tcp 127.0.0.1:37573: bind: address already in use"',
      ),
    ).toBe(true);
    expect(saysAddressInUse('OSError: [Errno 98] Address already in use')).toBe(true);
    expect(saysAddressInUse('panic: etcdserver: no leader')).toBe(false);
  });
});
