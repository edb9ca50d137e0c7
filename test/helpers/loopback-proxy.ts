import { connect as connectTcp, createServer, type Socket } from "node:net";

/**
 * A loopback TCP proxy to a local port that a test can cut and restore: an
 * outage of the server behind it (every connection dropped, new ones closed
 * at once) without stopping that server, and on the same address after.
 */
export interface LoopbackProxy {
  readonly port: number;
  /** Drops every connection through the proxy; until `restore`, new ones are closed as they arrive. */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startLoopbackProxy(targetPort: number): Promise<LoopbackProxy> {
  const sockets = new Set<Socket>();
  let open = true;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    // A peer that went away mid-write: the pair is torn down by "close".
    socket.on("error", () => {});
  };
  const server = createServer((client) => {
    track(client);
    if (!open) {
      client.destroy();
      return;
    }
    const upstream = connectTcp(targetPort, "127.0.0.1");
    track(upstream);
    client.pipe(upstream).pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  const dropAll = () => {
    for (const socket of sockets) socket.destroy();
  };
  return {
    port,
    cut() {
      open = false;
      dropAll();
    },
    restore() {
      open = true;
    },
    async close() {
      dropAll();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
