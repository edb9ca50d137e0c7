import { createHash, randomBytes } from "node:crypto";
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";

/**
 * A small OAuth 2.1 authorization server and the protected-resource metadata
 * of an MCP endpoint, in this process on 127.0.0.1, for unit tests of the
 * client side (src/auth). Strict where the client could go wrong: PKCE S256 is
 * checked, codes work once, refresh tokens rotate (an old one is refused with
 * invalid_grant), and the redirect carries `iss`, which the metadata says it
 * does. /authorize approves at once (or refuses, with `deny`) by redirecting
 * to the client's redirect_uri, so a plain `fetch` of the authorization URL
 * plays the person in the browser. (test/fixtures/oauth-server.ts is the
 * out-of-process one for CLI integration tests.)
 */
export interface LoopbackAuthorizationServer {
  /** The issuer, `http://127.0.0.1:<port>/`. */
  issuer: string;
  /** The protected MCP endpoint's URL (only its metadata is served). */
  mcpUrl: string;
  /** The RFC 9728 metadata URL a 401's WWW-Authenticate would name. */
  resourceMetadataUrl: string;
  /** Query of every /authorize request, in order. */
  authorizations: URLSearchParams[];
  registrations: number;
  codeExchanges: number;
  refreshes: number;
  refreshFailures: number;
  /** /authorize refuses (error=access_denied) while set. */
  deny: boolean;
  /** Every refresh token stops working (the next refresh gets invalid_grant). */
  revokeRefreshTokens(): void;
  close(): Promise<void>;
}

export interface LoopbackAuthorizationServerOptions {
  /** Access-token lifetime in seconds (default 3600). */
  tokenTtlS?: number;
  scopesSupported?: string[];
}

interface Grant {
  clientId: string;
  scope: string;
}

export async function startLoopbackAuthorizationServer(
  options: LoopbackAuthorizationServerOptions = {},
): Promise<LoopbackAuthorizationServer> {
  const ttl = options.tokenTtlS ?? 3600;
  const codes = new Map<string, Grant & { challenge: string; redirectUri: string }>();
  const refreshTokens = new Map<string, Grant>();
  let counter = 0;
  const issue = (grant: Grant) => {
    counter++;
    const refresh = `rt-${counter}-${randomBytes(6).toString("hex")}`;
    refreshTokens.set(refresh, grant);
    return {
      access_token: `at-${counter}-${randomBytes(6).toString("hex")}`,
      token_type: "Bearer",
      expires_in: ttl,
      refresh_token: refresh,
      scope: grant.scope,
    };
  };

  const http = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      json(response, 500, { error: "server_error", error_description: String(error) });
    });
  });
  http.listen(0, "127.0.0.1");
  await once(http, "listening");
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const server: LoopbackAuthorizationServer = {
    issuer: `${base}/`,
    mcpUrl: `${base}/mcp`,
    resourceMetadataUrl: `${base}/.well-known/oauth-protected-resource/mcp`,
    authorizations: [],
    registrations: 0,
    codeExchanges: 0,
    refreshes: 0,
    refreshFailures: 0,
    deny: false,
    revokeRefreshTokens: () => refreshTokens.clear(),
    close: async () => {
      http.closeAllConnections();
      http.close();
      await once(http, "close");
    },
  };

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", base);
    const route = `${request.method} ${url.pathname}`;
    if (route === "GET /.well-known/oauth-protected-resource/mcp") {
      return json(response, 200, {
        resource: server.mcpUrl,
        authorization_servers: [server.issuer],
        ...(options.scopesSupported && { scopes_supported: options.scopesSupported }),
      });
    }
    if (route === "GET /.well-known/oauth-authorization-server") {
      return json(response, 200, {
        issuer: server.issuer,
        authorization_endpoint: `${base}/authorize`,
        token_endpoint: `${base}/token`,
        registration_endpoint: `${base}/register`,
        response_types_supported: ["code"],
        grant_types_supported: ["authorization_code", "refresh_token"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["none"],
        authorization_response_iss_parameter_supported: true,
        ...(options.scopesSupported && { scopes_supported: options.scopesSupported }),
      });
    }
    if (route === "POST /register") {
      const metadata = JSON.parse(await body(request)) as Record<string, unknown>;
      server.registrations++;
      return json(response, 201, {
        ...metadata,
        client_id: `client-${server.registrations}`,
        client_id_issued_at: Math.floor(Date.now() / 1000),
      });
    }
    if (route === "GET /authorize") {
      const query = url.searchParams;
      server.authorizations.push(query);
      const redirect = new URL(query.get("redirect_uri") ?? "");
      redirect.searchParams.set("state", query.get("state") ?? "");
      redirect.searchParams.set("iss", server.issuer);
      if (server.deny) {
        redirect.searchParams.set("error", "access_denied");
      } else {
        const code = randomBytes(12).toString("hex");
        codes.set(code, {
          clientId: query.get("client_id") ?? "",
          scope: query.get("scope") ?? "",
          challenge: query.get("code_challenge") ?? "",
          redirectUri: query.get("redirect_uri") ?? "",
        });
        redirect.searchParams.set("code", code);
      }
      response.writeHead(302, { location: redirect.href }).end();
      return;
    }
    if (route === "POST /token") {
      const form = new URLSearchParams(await body(request));
      if (form.get("grant_type") === "authorization_code") {
        const grant = codes.get(form.get("code") ?? "");
        codes.delete(form.get("code") ?? "");
        const verifier = form.get("code_verifier") ?? "";
        const challenge = createHash("sha256").update(verifier).digest("base64url");
        if (!grant || grant.challenge !== challenge || grant.redirectUri !== form.get("redirect_uri")) {
          return json(response, 400, { error: "invalid_grant" });
        }
        server.codeExchanges++;
        return json(response, 200, issue(grant));
      }
      if (form.get("grant_type") === "refresh_token") {
        // Slow enough that concurrent refreshes by a careless client would overlap here.
        await sleep(100);
        const old = form.get("refresh_token") ?? "";
        const grant = refreshTokens.get(old);
        if (!grant) {
          server.refreshFailures++;
          // Later than a concurrent successful refresh, whose client has then saved its tokens.
          await sleep(200);
          return json(response, 400, { error: "invalid_grant", error_description: "unknown refresh token" });
        }
        refreshTokens.delete(old); // rotation: each refresh token works once
        server.refreshes++;
        return json(response, 200, issue(grant));
      }
      return json(response, 400, { error: "unsupported_grant_type" });
    }
    json(response, 404, { error: "not_found" });
  }
  return server;
}

function json(response: ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
  response.end(JSON.stringify(value));
}

async function body(request: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of request) text += chunk;
  return text;
}
