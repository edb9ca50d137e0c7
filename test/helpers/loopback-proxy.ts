import { connect as connectTcp, createServer, type Socket } from "node:net";

/**
 * A loopback TCP proxy to a local port that a test can cut, freeze and
 * restore: an outage of the server behind it without stopping that server,
 * on the same address after.
 */
export interface LoopbackProxy {
  readonly port: number;
  /** Drops every connection through the proxy; until `restore`, new ones are closed as they arrive. */
  cut(): void;
  /**
   * A network gone silent: every connection, current or new, stays open and
   * carries nothing. Frozen connections stay so after `restore`, as ones a
   * partition outlived; only new ones work again.
   */
  freeze(): void;
  restore(): void;
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  upstream: Socket;
  frozen: boolean;
}

export async function startLoopbackProxy(targetPort: number): Promise<LoopbackProxy> {
  const pairs = new Set<Pair>();
  let mode: "open" | "cut" | "frozen" = "open";
  // Half-open allowed: a frozen pair must not answer a FIN either (a partition does not).
  const server = createServer({ allowHalfOpen: true }, (client) => {
    client.on("error", () => {});
    if (mode === "cut") {
      client.destroy();
      return;
    }
    const upstream = connectTcp({ port: targetPort, host: "127.0.0.1", allowHalfOpen: true });
    upstream.on("error", () => {});
    const pair: Pair = { client, upstream, frozen: mode === "frozen" };
    pairs.add(pair);
    // Forwarded unless frozen: a frozen pair swallows what either side sends.
    client.on("data", (chunk) => pair.frozen || upstream.write(chunk));
    upstream.on("data", (chunk) => pair.frozen || client.write(chunk));
    client.on("end", () => pair.frozen || upstream.end());
    upstream.on("end", () => pair.frozen || client.end());
    const teardown = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on("close", teardown);
    upstream.on("close", teardown);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  const dropAll = () => {
    for (const pair of pairs) {
      pair.client.destroy();
      pair.upstream.destroy();
    }
  };
  return {
    port,
    cut() {
      mode = "cut";
      dropAll();
    },
    freeze() {
      mode = "frozen";
      for (const pair of pairs) pair.frozen = true;
    },
    restore() {
      mode = "open";
    },
    async close() {
      dropAll();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
