/**
 * Free TCP ports on 127.0.0.1 for servers that a child process binds later (etcd, kube-apiserver, moto, …).
 *
 * The usual trick, `listen(0)` then close, hands out a port from the kernel's ephemeral range — the same range the
 * kernel draws the local port of every outgoing connection from. Between the close and the child's bind, any
 * connection this machine opens (the API server to etcd, a test's client) can take that port, and the child then
 * dies with "address already in use" (CI saw kube-scheduler do so). Ports below the ephemeral range are never given
 * to outgoing connections, so a port drawn at random there and bound once to check is only lost to another process
 * that listens on the very same port in the same moment.
 */
import fs from 'node:fs';
import net from 'node:net';

/** Linux's default `net.ipv4.ip_local_port_range`, used where /proc cannot be read. */
const DEFAULT_EPHEMERAL_LOW = 32768;
/** The lowest port drawn: above the registered services most machines run. */
const LOWEST = 10000;
/** How many random ports to try before falling back to the kernel's choice. */
const ATTEMPTS = 64;
/** Ports this process handed out, never handed out twice (a server started later may not have bound yet). */
const handedOut = new Set<number>();

/**
 * The lowest port of the kernel's ephemeral range, from /proc/sys/net/ipv4/ip_local_port_range.
 * @returns e.g. 32768; {@link DEFAULT_EPHEMERAL_LOW} when the file is missing or unreadable (not Linux)
 */
export function ephemeralLow(file = '/proc/sys/net/ipv4/ip_local_port_range'): number {
  try {
    const low = Number(fs.readFileSync(file, 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 0 ? low : DEFAULT_EPHEMERAL_LOW;
  } catch {
    return DEFAULT_EPHEMERAL_LOW;
  }
}

/** Binds `port` on 127.0.0.1 and closes it again; 0 lets the kernel choose. @returns the port bound, or undefined when taken */
function tryBind(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(undefined));
    srv.listen({ port, host: '127.0.0.1', exclusive: true }, () => {
      const addr = srv.address();
      const bound = typeof addr === 'object' && addr ? addr.port : undefined;
      srv.close(() => resolve(bound));
    });
  });
}

/**
 * A TCP port on 127.0.0.1 that is free now and outside the kernel's ephemeral range (see the file's comment), not
 * handed out before by this process.
 * @param random a source of numbers in [0, 1) (tests pass a seeded one)
 * @returns the port; the kernel's own choice (`listen(0)`) only when {@link ATTEMPTS} random ports below the
 *   ephemeral range were all taken or the range is too small (under 1,000 ports)
 * @throws Error when not even the kernel can give a port (no loopback interface)
 */
export async function freeLoopbackPort(random: () => number = Math.random): Promise<number> {
  const high = ephemeralLow() - 1;
  if (high - LOWEST >= 1000) {
    for (let i = 0; i < ATTEMPTS; i++) {
      const port = LOWEST + Math.floor(random() * (high - LOWEST + 1));
      if (handedOut.has(port)) continue;
      if ((await tryBind(port)) === port) {
        handedOut.add(port);
        return port;
      }
    }
  }
  const port = await tryBind(0);
  if (port === undefined) throw new Error('no free TCP port on 127.0.0.1');
  handedOut.add(port);
  return port;
}

/**
 * Whether a process's log says it could not bind its port, as Go servers (etcd, the Kubernetes components) and
 * Python's werkzeug put it.
 */
export function saysAddressInUse(logText: string): boolean {
  return /address already in use/i.test(logText);
}
