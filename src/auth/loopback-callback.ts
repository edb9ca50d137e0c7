import { once } from "node:events";
import { createServer, type Server } from "node:http";
import { AuthError } from "./errors.ts";

export const CALLBACK_PATH = "/callback";

/** A one-shot listener on 127.0.0.1 for the authorization server's redirect. */
export interface LoopbackCallback {
  readonly port: number;
  readonly redirectUrl: string;
  /** The redirect's query once one with `state` arrives; rejects on `signal` or an `error` redirect. */
  wait(state: string, signal: AbortSignal): Promise<URLSearchParams>;
  close(): void;
}

const PAGE = (title: string, text: string) =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><body style="font-family:sans-serif;margin:3em">` +
  `<h1>${title}</h1><p>${text}</p></body>`;

/**
 * Listens on `port` (0: any free one) of 127.0.0.1 only, never another
 * interface: the redirect carries an authorization code. Requests without the
 * expected `state` are refused and do not end the wait (a stray or forged
 * request cannot complete a login).
 */
export async function listenForCallback(port: number, server = "the server"): Promise<LoopbackCallback> {
  let expected: string | undefined;
  let deliver: ((params: URLSearchParams) => void) | undefined;
  let fail: ((error: Error) => void) | undefined;
  const http: Server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const send = (status: number, title: string, text: string) => {
      response.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
      response.end(PAGE(title, text));
    };
    if (request.method !== "GET" || url.pathname !== CALLBACK_PATH) return send(404, "Not found", "");
    const params = url.searchParams;
    if (expected === undefined || params.get("state") !== expected) {
      return send(400, "Unexpected request", "This is not the authorization ToolScript is waiting for.");
    }
    const error = params.get("error");
    if (error) {
      send(
        400,
        "Authorization refused",
        `${escapeHtml(server)} did not authorize ToolScript: ${escapeHtml(error)}.`,
      );
      const description = params.get("error_description");
      fail?.(
        new AuthError(
          "auth.denied",
          `authorization for ${server} was refused: ${error}${description ? ` (${description})` : ""}`,
          { server, error },
        ),
      );
      return;
    }
    if (!params.get("code")) return send(400, "No authorization code", "The redirect carried no code.");
    send(200, "Authorized", `ToolScript can now use ${escapeHtml(server)}. You can close this page.`);
    deliver?.(params);
  });
  http.listen(port, "127.0.0.1");
  try {
    await Promise.race([
      once(http, "listening"),
      once(http, "error").then(([error]) => Promise.reject(error)),
    ]);
  } catch (error) {
    http.close();
    const code = (error as NodeJS.ErrnoException).code;
    throw new AuthError(
      "auth.callback_failed",
      `cannot listen for the authorization redirect on 127.0.0.1:${port}${code ? ` (${code})` : ""}`,
      { server, port },
      { cause: error },
    );
  }
  const address = http.address();
  const actual = typeof address === "object" && address ? address.port : port;
  const close = () => {
    http.closeAllConnections();
    http.close();
  };
  return {
    port: actual,
    redirectUrl: `http://127.0.0.1:${actual}${CALLBACK_PATH}`,
    close,
    wait(state, signal) {
      expected = state;
      return new Promise<URLSearchParams>((resolve, reject) => {
        const onAbort = () => reject(signal.reason ?? new Error("authorization aborted"));
        if (signal.aborted) return onAbort();
        signal.addEventListener("abort", onAbort, { once: true });
        const settle = () => signal.removeEventListener("abort", onAbort);
        deliver = (params) => {
          settle();
          resolve(params);
        };
        fail = (error) => {
          settle();
          reject(error);
        };
      });
    },
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
