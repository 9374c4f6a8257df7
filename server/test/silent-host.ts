/**
 * A database host that froze: a TCP server on loopback that accepts connections and never
 * answers, for the tests of connect timeouts (db/client.ts) and readiness (modules/health).
 */
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

/**
 * Starts the silent host before the current `describe`'s tests and closes it, with every
 * connection it accepted, after them.
 * @returns the PostgreSQL URL of a database on it (valid once the tests run).
 */
export function useSilentHost(): { url: () => string } {
  const server = createServer((socket) => void sockets.push(socket));
  const sockets: Socket[] = [];
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return { url: () => `postgres://postgres@127.0.0.1:${(server.address() as AddressInfo).port}/none` };
}
