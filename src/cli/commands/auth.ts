import { defineCommand } from "citty";
import { Authorizations } from "../../auth/authorizations.ts";
import { CredentialVault } from "../../auth/credential-vault.ts";
import { oauthSettingsOf } from "../../auth/oauth-settings.ts";
import type { AuthorizationStatus } from "../../auth/server-authorization.ts";
import { loadConfig } from "../../config/load.ts";
import type { Config } from "../../config/schema.ts";
import type { HttpServerConfig } from "../../config/servers.ts";
import type { SharedStore } from "../../store/domains.ts";
import { openSharedStore } from "../../store/open-shared-store.ts";
import { hasAuthorizationHeader } from "../../upstream/login-gate.ts";
import { CliError } from "../cli-error.ts";
import { COMMAND_META } from "./meta.ts";

const configArg = {
  type: "string",
  description: "Config file (default: ./.mcp.json, else ./toolscript.config.json)",
  valueHint: "FILE",
} as const;

/** The arguments of the commands about one server (login, logout). */
const serverArgs = {
  server: { type: "positional", description: "Server name in mcpServers", required: true },
  config: configArg,
} as const;

interface AuthContext {
  config: Config;
  authorizations: Authorizations;
  vault: CredentialVault;
}

/** Runs `use` with the store and OAuth side of the config (no server is connected), then closes the store. */
async function withAuth<T>(
  configPath: string | undefined,
  use: (context: AuthContext) => Promise<T>,
): Promise<T> {
  const { store, ...context } = await openAuth(configPath);
  try {
    return await use(context);
  } finally {
    await store.close();
  }
}

async function openAuth(configPath: string | undefined): Promise<AuthContext & { store: SharedStore }> {
  const config = await loadConfig({ path: configPath, cwd: process.cwd(), env: process.env });
  const storage = config.settings.storage;
  const warn = (message: string) => process.stderr.write(`toolscript: ${message}\n`);
  // SQLite in storage.dir, or the PostgreSQL store the replicas share (storage.url).
  const store = await openSharedStore(storage, { warn });
  let vault: CredentialVault;
  try {
    vault = CredentialVault.open({
      store,
      dataDir: storage.url === undefined ? storage.dir : undefined,
      logger: { warn },
    });
  } catch (error) {
    await store.close();
    throw error;
  }
  const authorizations = new Authorizations({
    credentials: () => vault,
    settings: oauthSettingsOf(config),
    interactive: true,
    loginTimeoutMs: config.settings.upstream.loginTimeoutMs,
  });
  return { config, store, authorizations, vault };
}

function httpServer(config: Config, name: string): HttpServerConfig {
  const server = config.servers.find((candidate) => candidate.name === name);
  if (!server) {
    const known = config.servers
      .filter((candidate) => candidate.kind === "http")
      .map((candidate) => candidate.name);
    throw new CliError(
      `no server "${name}" in the config${known.length ? ` (remote servers: ${known.join(", ")})` : ""}`,
    );
  }
  if (server.kind !== "http")
    throw new CliError(`server "${name}" is a stdio server: OAuth is for remote (url) servers`);
  return server;
}

const login = defineCommand({
  meta: { name: "login", description: "Authorize ToolScript with a remote server (opens the browser)" },
  args: serverArgs,
  run: ({ args }) =>
    withAuth(args.config, async ({ config, authorizations }) => {
      const server = httpServer(config, args.server);
      const authorization = authorizations.forServer(server.name, server.url);
      process.stderr.write(`toolscript: logging in to ${server.name} (${server.url})\n`);
      await authorization.login();
      process.stderr.write(`toolscript: ${describe(await authorization.status())}\n`);
    }),
});

const status = defineCommand({
  meta: { name: "status", description: "Show the OAuth state of remote servers" },
  args: {
    server: { type: "positional", description: "Only this server", required: false },
    config: configArg,
    json: { type: "boolean", description: "A JSON array" },
  },
  run: ({ args }) =>
    withAuth(args.config, async ({ config, authorizations, vault }) => {
      const servers = args.server
        ? [httpServer(config, args.server)]
        : config.servers.filter((server): server is HttpServerConfig => server.kind === "http");
      const statuses = await Promise.all(
        servers.map((server): Promise<ShownStatus> | ShownStatus => {
          if (hasAuthorizationHeader(server.headers)) {
            return { server: server.name, url: server.url, state: "no oauth" as const, refreshable: false };
          }
          return authorizations.forServer(server.name, server.url).status();
        }),
      );
      if (args.json) process.stdout.write(`${JSON.stringify(statuses, null, 2)}\n`);
      else for (const entry of statuses) process.stdout.write(`${describe(entry)}\n`);
      if (!args.json && servers.length === 0)
        process.stderr.write("toolscript: no remote servers in the config\n");
      else if (!args.json) process.stderr.write(`credentials key: ${vault.keySource}\n`);
    }),
});

const logout = defineCommand({
  meta: { name: "logout", description: "Forget the tokens and client registration of a remote server" },
  args: serverArgs,
  run: ({ args }) =>
    withAuth(args.config, async ({ config, authorizations }) => {
      const server = httpServer(config, args.server);
      const had = await authorizations.forServer(server.name, server.url).logout();
      process.stderr.write(
        `toolscript: ${had ? `logged out of ${server.name}` : `${server.name} had no stored tokens`}\n`,
      );
    }),
});

export const authCommand = defineCommand({
  meta: COMMAND_META.auth,
  subCommands: { login, status, logout },
});

type ShownStatus =
  | AuthorizationStatus
  | { server: string; url: string; state: "no oauth"; refreshable: boolean };

function describe(status: ShownStatus): string {
  if (status.state === "no oauth")
    return `${status.server}: no oauth (an Authorization header is configured)`;
  if (status.state === "needs login")
    return `${status.server}: needs login (toolscript auth login ${status.server})`;
  const parts = [`${status.server}: ${status.state}`];
  if ("expiresAt" in status && status.expiresAt) {
    parts.push(`${status.state === "expired" ? "expired" : "expires"} ${status.expiresAt}`);
  }
  if (status.refreshable) parts.push("refreshable");
  if ("scopes" in status && status.scopes) parts.push(`scopes "${status.scopes}"`);
  if ("issuer" in status && status.issuer) parts.push(`issuer ${status.issuer}`);
  return parts.join(", ");
}
