import { defineCommand } from "citty";
import { stderrLogger } from "../../gateway/logger.ts";
import { CliError } from "../cli-error.ts";
import { exitProcess } from "../exit.ts";
import { COMMAND_META } from "./meta.ts";

export const serveCommand = defineCommand({
  meta: COMMAND_META.serve,
  args: {
    config: {
      type: "string",
      description: "Config file (default: ./.mcp.json, else ./toolscript.config.json)",
      valueHint: "FILE",
    },
    http: {
      type: "string",
      description:
        "Serve Streamable HTTP on HOST:PORT (endpoint /mcp) instead of stdio, e.g. 127.0.0.1:7777; needs a token (below)",
      valueHint: "HOST:PORT",
    },
    admin: {
      type: "string",
      description:
        "With stdio: also serve the probes (/health, /ready), /metrics and /dashboard on a loopback HOST:PORT, e.g. 127.0.0.1:9464",
      valueHint: "HOST:PORT",
    },
  },
  async run({ args }) {
    const address = args.http === undefined ? undefined : parseAddress(args.http);
    const admin = args.admin === undefined ? undefined : parseAddress(args.admin, "--admin");
    if (admin && address)
      throw new CliError(
        "--admin is for stdio: with --http the probes are served at /health and /ready of that server",
      );
    // Loaded here, not at the top: `toolscript serve --help` needs none of the gateway.
    const [
      { loadConfig },
      { ClientRouter },
      { assertAuthConfigured, ClientTokens, isLoopbackHost },
      { closeOnSignals, openGateway },
    ] = await Promise.all([
      import("../../config/load.ts"),
      import("../../server/forwarding/client-router.ts"),
      import("../../server/http/auth.ts"),
      import("../open-gateway.ts"),
    ]);
    const config = await loadConfig({ path: args.config, cwd: process.cwd(), env: process.env });
    const http = config.settings.server.http;
    const token = http.token ?? (process.env.TOOLSCRIPT_HTTP_TOKEN || undefined);
    // Checked before any upstream starts: a server that would refuse to listen spawns nothing.
    if (admin && !isLoopbackHost(admin.host))
      throw new CliError(`--admin listens on loopback only (127.0.0.1, ::1, localhost), got "${admin.host}"`);
    if (address)
      assertAuthConfigured(
        address.host,
        new ClientTokens({ token, clients: http.clients }),
        http.allowUnauthenticatedLoopback,
      );
    // Before the gateway opens: its first upstream requests are traced too. Off without OTEL_* variables.
    const { startTracing } = await import("../../ops/tracing/start-tracing.ts");
    const tracing = await startTracing(process.env, stderrLogger());
    // Upstreams' sampling, elicitation and roots requests go to the front-end clients (declared to them).
    const gateway = await openGateway({
      config,
      showStatus: true,
      logChanges: true,
      waitForServers: false,
      clientRequests: new ClientRouter(),
    });
    // Each transport's code loads only when it serves: stdio never loads the HTTP server.
    if (!address) {
      const { serveStdio } = await import("../../server/stdio.ts");
      let adminServer: { url: string; close(): Promise<void> } | undefined;
      if (admin) {
        const { serveAdmin } = await import("../../server/http/admin-server.ts");
        try {
          adminServer = await serveAdmin(gateway, admin);
        } catch (error) {
          await gateway.close();
          await tracing.shutdown();
          throw new CliError(`--admin: ${error instanceof Error ? error.message : String(error)}`);
        }
        process.stderr.write(`toolscript: probes at ${adminServer.url}/health and /ready\n`);
        process.stderr.write(`toolscript: dashboard at ${adminServer.url}/dashboard\n`);
      }
      // The spans still queued are exported before the process ends.
      closeOnSignals(gateway, () => void tracing.shutdown().finally(() => exitProcess(0)));
      await serveStdio(gateway);
      await adminServer?.close();
      await gateway.close();
      await tracing.shutdown();
      return;
    }
    try {
      const { serveHttp } = await import("../../server/http/http-server.ts");
      const running = await serveHttp(gateway, {
        host: address.host,
        port: address.port,
        token,
        clients: http.clients,
        maxSessionsPerClient: http.maxSessionsPerClient,
        allowUnauthenticatedLoopback: http.allowUnauthenticatedLoopback,
        allowedHosts: http.allowedHosts,
        allowedOrigins: http.allowedOrigins,
        executionsPerMinute: http.executionsPerMinute,
      });
      const names = [...(token ? ["default"] : []), ...Object.keys(http.clients)];
      const who = names.length > 0 ? `clients: ${names.join(", ")}` : "no token: loopback clients only";
      process.stderr.write(`toolscript: serving MCP over Streamable HTTP at ${running.url} (${who})\n`);
      const login = names.length > 0 ? " (log in once: /dashboard?token=<token>)" : "";
      process.stderr.write(`toolscript: dashboard at ${new URL(running.url).origin}/dashboard${login}\n`);
      await new Promise<void>((resolve) => {
        closeOnSignals(gateway, resolve);
      });
      await running.close();
      await tracing.shutdown();
    } catch (error) {
      await gateway.close();
      await tracing.shutdown();
      throw error;
    }
  },
});

export function parseAddress(text: string, flag = "--http"): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(text.trim());
  const port = Number(match?.[3]);
  if (!match || port > 65_535)
    throw new CliError(`${flag} expects HOST:PORT (e.g. 127.0.0.1:7777), got "${text}"`);
  return { host: (match[1] ?? match[2]) as string, port };
}
