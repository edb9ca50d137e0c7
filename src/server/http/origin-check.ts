import type { IncomingMessage } from "node:http";
import { isLoopbackHost } from "./auth.ts";

export interface OriginPolicy {
  allowedHosts: ReadonlySet<string>;
  allowedOrigins: ReadonlySet<string>;
}

/**
 * Hosts and origins a request may name, against DNS rebinding: a page on
 * evil.example that resolves to 127.0.0.1 sends `Host: evil.example`, and a
 * browser always sends its page's `Origin`.
 */
export function originPolicy(
  bindHost: string,
  port: number,
  extraHosts: readonly string[] = [],
  extraOrigins: readonly string[] = [],
): OriginPolicy {
  const names = isLoopbackHost(bindHost) ? ["localhost", "127.0.0.1", "[::1]"] : [bindHost];
  const hosts = new Set(extraHosts.map((host) => host.toLowerCase()));
  const origins = new Set(extraOrigins.map((origin) => origin.toLowerCase()));
  for (const name of names) {
    hosts.add(`${name}:${port}`);
    origins.add(`http://${name}:${port}`);
  }
  return { allowedHosts: hosts, allowedOrigins: origins };
}

/** Why the request is refused, or undefined when its Host and Origin are allowed. */
export function checkOrigin(request: IncomingMessage, policy: OriginPolicy): string | undefined {
  const host = request.headers.host?.toLowerCase();
  if (!host || !policy.allowedHosts.has(host)) return `Host header "${host ?? ""}" is not allowed`;
  const origin = request.headers.origin?.toLowerCase();
  if (origin !== undefined && !policy.allowedOrigins.has(origin)) return `Origin "${origin}" is not allowed`;
  return undefined;
}
