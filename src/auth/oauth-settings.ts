import type { Config } from "../config/schema.ts";
import type { OAuthSettings } from "../config/servers.ts";

/** The `oauth` key of each HTTP server that has one, by server name. */
export function oauthSettingsOf(config: Config): Map<string, OAuthSettings> {
  const settings = new Map<string, OAuthSettings>();
  for (const server of config.servers) {
    if (server.kind === "http" && server.oauth) settings.set(server.name, server.oauth);
  }
  return settings;
}
