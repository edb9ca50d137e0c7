import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Gateway } from "../../gateway/gateway.ts";
import { isLoopbackHost } from "./auth.ts";
import { createDashboard, DASHBOARD_PATH, isDashboardPath } from "./dashboard/dashboard-routes.ts";
import { checkOrigin, type OriginPolicy, originPolicy } from "./origin-check.ts";
import { answerMetrics, answerProbe, HEALTH_PATH, isProbePath, METRICS_PATH, READY_PATH } from "./probes.ts";
import { sendError } from "./send-error.ts";

export interface RunningAdminServer {
  url: string;
  close(): Promise<void>;
}

/**
 * The operator's endpoints of a gateway served over stdio (`serve --admin`):
 * the probes and the metrics, on a loopback port only, since they carry no token check.
 */
export async function serveAdmin(
  gateway: Gateway,
  address: { host: string; port: number },
): Promise<RunningAdminServer> {
  if (!isLoopbackHost(address.host))
    throw new Error(`--admin listens on loopback only (127.0.0.1, ::1, localhost), got "${address.host}"`);
  // No token on the loopback port; the Host check keeps pages of other sites (DNS rebinding) out.
  const dashboard = createDashboard(gateway);
  let policy: OriginPolicy = originPolicy(address.host, address.port);
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    const path = url.pathname;
    if (request.method === "GET" && isProbePath(path)) {
      void answerProbe(gateway, path, response);
      return;
    }
    if (isDashboardPath(path)) {
      const refused = checkOrigin(request, policy);
      if (refused) return sendError(response, 403, refused);
      return dashboard.handle(request, response, url);
    }
    if (request.method === "GET" && path === METRICS_PATH) {
      void answerMetrics(gateway, response);
      return;
    }
    sendError(
      response,
      404,
      `not found; the admin endpoints are ${HEALTH_PATH}, ${READY_PATH}, ${METRICS_PATH} and ${DASHBOARD_PATH}`,
    );
  });
  server.listen(address.port, address.host);
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  policy = originPolicy(address.host, port);
  const host = address.host.includes(":") ? `[${address.host}]` : address.host;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        dashboard.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
