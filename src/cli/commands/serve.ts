import { defineCommand } from "citty";
import { serveHttp } from "../../server/http/http-server.ts";
import { serveStdio } from "../../server/stdio.ts";
import { CliError } from "../cli-error.ts";
import { closeOnSignals, openGateway } from "../open-gateway.ts";

export const serveCommand = defineCommand({
  meta: {
    name: "serve",
    description: "Run the gateway as an MCP server (stdio by default, Streamable HTTP with --http)",
  },
  args: {
    config: {
      type: "string",
      description: "Config file (default: ./.mcp.json, else ./toolscript.config.json)",
      valueHint: "FILE",
    },
    http: {
      type: "string",
      description: "Serve Streamable HTTP on HOST:PORT instead of stdio (e.g. 127.0.0.1:7777)",
      valueHint: "HOST:PORT",
    },
  },
  async run({ args }) {
    const address = args.http === undefined ? undefined : parseAddress(args.http);
    const gateway = await openGateway({ configPath: args.config, showStatus: true, logChanges: true });
    if (!address) {
      closeOnSignals(gateway, () => process.exit(0));
      await serveStdio(gateway);
      await gateway.close();
      return;
    }
    const http = gateway.config.settings.server.http;
    try {
      const running = await serveHttp(gateway, {
        host: address.host,
        port: address.port,
        token: http.token ?? process.env.TOOLSCRIPT_HTTP_TOKEN,
        allowUnauthenticatedLoopback: http.allowUnauthenticatedLoopback,
        allowedHosts: http.allowedHosts,
        allowedOrigins: http.allowedOrigins,
        executionsPerMinute: http.executionsPerMinute,
      });
      process.stderr.write(`toolscript: serving MCP over Streamable HTTP at ${running.url}\n`);
      await new Promise<void>((resolve) => {
        closeOnSignals(gateway, resolve);
      });
      await running.close();
    } catch (error) {
      await gateway.close();
      throw error;
    }
  },
});

export function parseAddress(text: string): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(text.trim());
  const port = Number(match?.[3]);
  if (!match || port > 65_535)
    throw new CliError(`--http expects HOST:PORT (e.g. 127.0.0.1:7777), got "${text}"`);
  return { host: (match[1] ?? match[2]) as string, port };
}
