import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { DashboardError } from "./dashboard-error.ts";

/**
 * The dashboard's static page (page.html, app.js, app.css in ./page/), read
 * from disk: next to this module in src/, and from the package's
 * src/server/http/dashboard/page/ when running from dist/ (tsc copies no
 * .html, .js or .css file; package.json "files" ships that folder).
 */
const CANDIDATE_DIRS = [
  new URL("./page/", import.meta.url),
  new URL("../../../../src/server/http/dashboard/page/", import.meta.url),
];

export interface PageAsset {
  contentType: string;
  body: Buffer;
}

/** Served names (under /dashboard/) and their content types. */
export const PAGE_FILES: Readonly<Record<string, string>> = {
  "page.html": "text/html; charset=utf-8",
  "app.js": "text/javascript; charset=utf-8",
  "app.css": "text/css; charset=utf-8",
};

let cached: Map<string, PageAsset> | undefined;

/** Every file of the page, read once; throws `dashboard.page_missing` naming where it looked. */
export function pageAssets(): ReadonlyMap<string, PageAsset> {
  if (cached) return cached;
  const dir = CANDIDATE_DIRS.map((url) => fileURLToPath(url)).find((path) => existsSync(`${path}page.html`));
  if (dir === undefined)
    throw new DashboardError(
      "dashboard.page_missing",
      `the dashboard page is missing: no page.html under ${CANDIDATE_DIRS.map((url) => fileURLToPath(url)).join(" or ")}`,
    );
  const assets = new Map<string, PageAsset>();
  for (const [name, contentType] of Object.entries(PAGE_FILES))
    assets.set(name, { contentType, body: readFileSync(`${dir}${name}`) });
  cached = assets;
  return assets;
}
