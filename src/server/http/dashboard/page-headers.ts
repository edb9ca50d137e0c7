/**
 * Headers of every dashboard answer: nothing but the gateway's own files runs
 * or loads (no inline script, no CDN), no framing, nothing cached, no referrer
 * (the login URL carries a token).
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy":
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
};
