import type { ServerResponse } from "node:http";
import { PAGE_HEADERS } from "./page-headers.ts";

/** Text made safe to put between HTML tags or in a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * The 401 page: what is wrong and how to log in. Its form sends the token
 * once as `?token=`, which the server answers with a cookie and a redirect to
 * the clean URL (the token stays in neither the address bar nor the history).
 */
export function sendLoginPage(response: ServerResponse, why: string): void {
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>ToolScript dashboard: log in</title>
<link rel="stylesheet" href="/dashboard/app.css">
</head>
<body class="login">
<main>
<h1>ToolScript dashboard</h1>
<p class="why" id="login-why">${escapeHtml(why)}</p>
<form method="get" action="/dashboard">
<label for="token">HTTP token (toolscript.server.http.token, TOOLSCRIPT_HTTP_TOKEN, or a client's token)</label>
<input id="token" name="token" type="password" autocomplete="current-password" required>
<button type="submit">Log in</button>
</form>
<p class="hint">Or open <code>/dashboard?token=&lt;token&gt;</code> once: the gateway sets an HttpOnly cookie and sends you on to <code>/dashboard</code>.</p>
</main>
</body>
</html>
`;
  response.writeHead(401, {
    ...PAGE_HEADERS,
    "content-type": "text/html; charset=utf-8",
    "content-length": Buffer.byteLength(html),
  });
  response.end(html);
}
