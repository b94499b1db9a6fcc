import net from 'node:net';

/**
 * A TCP proxy in front of the test's PostgreSQL server, so a test can take the database away from a store
 * for a while, as a restart or a failover does, without touching the server other tests share: `cut()`
 * drops every open connection and refuses new ones (they are closed as soon as they arrive) until
 * `restore()`.
 */
export type OutageProxy = {
  /** The proxy's address in place of the server's, in a connection string. */
  url(databaseUrl: string): string;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
};

export async function startOutageProxy(target: { host: string; port: number }): Promise<OutageProxy> {
  const open = new Set<net.Socket>();
  let down = false;
  const server = net.createServer((client) => {
    if (down) {
      client.destroy();
      return;
    }
    const upstream = net.connect(target.port, target.host);
    open.add(client);
    open.add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url(databaseUrl) {
      const u = new URL(databaseUrl);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    cut() {
      down = true;
      for (const socket of open) socket.destroy();
      open.clear();
    },
    restore() {
      down = false;
    },
    async close() {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
