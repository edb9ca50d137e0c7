// Shared constants and helpers for the search training corpus (issue #23).
// Used by collect-tools.mjs (collection, index, README) and check-corpus.mjs (validation).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const CORPUS_DIR = join(REPO_ROOT, "data", "search", "corpus");
export const SERVERS_DIR = join(CORPUS_DIR, "servers");
export const LICENSES_DIR = join(CORPUS_DIR, "licenses");
export const SKIPPED_FILE = join(CORPUS_DIR, "skipped.json");
export const INDEX_FILE = join(CORPUS_DIR, "index.json");
export const SERVERS_LIST = join(REPO_ROOT, "scripts", "search-corpus", "servers.json");

/** The 24 servers of the unseen check catalog: never in the corpus, nor forks/wrappers of them. */
export const EXCLUDED_PACKAGES = [
  "@modelcontextprotocol/server-everything",
  "@modelcontextprotocol/server-filesystem",
  "@modelcontextprotocol/server-memory",
  "@modelcontextprotocol/server-sequential-thinking",
  "@modelcontextprotocol/server-github",
  "@modelcontextprotocol/server-postgres",
  "@modelcontextprotocol/server-puppeteer",
  "@modelcontextprotocol/server-aws-kb-retrieval",
  "@modelcontextprotocol/server-pdf",
  "@modelcontextprotocol/server-system-monitor",
  "@modelcontextprotocol/server-gitlab",
  "@modelcontextprotocol/server-slack",
  "@modelcontextprotocol/server-brave-search",
  "@modelcontextprotocol/server-google-maps",
  "@modelcontextprotocol/server-gdrive",
  "@modelcontextprotocol/server-everart",
  "@playwright/mcp",
  "chrome-devtools-mcp",
  "@upstash/context7-mcp",
  "@notionhq/notion-mcp-server",
  "mongodb-mcp-server",
  "@wonderwhy-er/desktop-commander",
  "@cyanheads/git-mcp-server",
  "mcp-server-kubernetes",
];

/**
 * Products whose servers are kept out as well (the unseen catalog's products), as patterns over a
 * package name or a serverInfo.name. Each: [label, RegExp].
 */
export const EXCLUDED_PRODUCTS = [
  ["GitHub", /github/i],
  ["GitLab", /gitlab/i],
  ["Slack", /slack/i],
  ["Notion", /notion(?!al)/i],
  ["MongoDB", /mongo/i],
  ["Kubernetes", /kubernetes|\bk8s\b|kubectl/i],
  ["Puppeteer", /puppeteer/i],
  ["Playwright", /playwright/i],
  ["Chrome DevTools", /chrome[-_ ]?devtools/i],
  ["Brave Search", /brave/i],
  ["Google Maps", /google[-_ ]?maps|googlemaps/i],
  ["Google Drive", /gdrive|google[-_ ]?drive/i],
  ["Context7", /context7/i],
  ["EverArt", /everart/i],
  ["AWS KB retrieval", /aws[-_ ]?kb|kb[-_ ]retrieval|knowledge[-_ ]?base[-_ ]?retrieval/i],
  ["git (local repos)", /(^|[^a-z])git([^a-z]|$)/i],
  ["PostgreSQL", /postgres/i],
  ["memory / knowledge graph", /(^|[^a-z])memory([^a-z]|$)|knowledge[-_ ]?graph/i],
  ["sequential thinking", /sequential[-_ ]?thinking/i],
  ["desktop commander", /desktop[-_ ]?commander/i],
  ["filesystem", /(^|[^a-z])(server-)?filesystem([^a-z]|$)/i],
  ["PDF reader", /(^|[^a-z])pdf([^a-z]|$)/i],
  ["system monitor", /system[-_ ]?monitor/i],
  ["everything test server", /(^|[^a-z])everything([^a-z]|$)/i],
];

/** Licences under which tool descriptions may be redistributed as training data (permissive). */
const PERMISSIVE = new Set(
  [
    "MIT",
    "MIT-0",
    "Apache-2.0",
    "BSD-2-Clause",
    "BSD-3-Clause",
    "BSD-3-Clause-Clear",
    "0BSD",
    "ISC",
    "MPL-2.0",
    "CC0-1.0",
    "Unlicense",
    "Zlib",
    "BlueOak-1.0.0",
    "Python-2.0",
    "CC-BY-4.0",
    "WTFPL",
    "X11",
  ].map((s) => s.toLowerCase()),
);

/** Normalises a few common non-SPDX spellings. */
export function normaliseLicense(raw) {
  if (raw == null) return null;
  let s = typeof raw === "string" ? raw : (raw.type ?? null);
  if (Array.isArray(raw)) s = raw.map((r) => (typeof r === "string" ? r : r.type)).join(" OR ");
  if (!s) return null;
  s = s.trim();
  const fixes = [
    [/^apache(\s+license)?,?\s*(version\s*)?2(\.0)?$/i, "Apache-2.0"],
    [/^apache-2$/i, "Apache-2.0"],
    [/^mit(\s+license)?$/i, "MIT"],
    [/^isc(\s+license)?$/i, "ISC"],
    [/^bsd$/i, "BSD-3-Clause"],
  ];
  for (const [re, to] of fixes) if (re.test(s)) return to;
  return s;
}

/** true when an SPDX expression permits redistribution under permissive terms. */
export function isPermissive(spdx) {
  if (!spdx) return false;
  const expr = spdx.replace(/[()]/g, " ").trim();
  // OR: any branch permissive; AND: every part permissive.
  return expr
    .split(/\s+OR\s+/i)
    .some((branch) => branch.split(/\s+AND\s+/i).every((p) => PERMISSIVE.has(p.trim().toLowerCase())));
}

/** Guesses a licence from a LICENSE file's text (only for packages whose package.json names none). */
export function licenseFromText(text) {
  if (/Permission is hereby granted, free of charge/i.test(text)) return "MIT";
  if (/Apache License[\s,]+Version 2\.0/i.test(text)) return "Apache-2.0";
  if (/Permission to use, copy, modify, and\/or distribute this software for any purpose/i.test(text))
    return "ISC";
  if (/Redistribution and use in source and binary forms/i.test(text)) return "BSD-3-Clause";
  if (/Mozilla Public License,? [vV]ersion 2\.0/i.test(text)) return "MPL-2.0";
  if (/This is free and unencumbered software released into the public domain/i.test(text))
    return "Unlicense";
  return null;
}

export function safeName(pkg) {
  return pkg
    .replace(/^@/, "")
    .replace(/\//g, "__")
    .replace(/[^A-Za-z0-9._-]/g, "_");
}

/** Which exclusion (package or product) a name hits, or null. */
export function exclusionHit(name) {
  if (!name) return null;
  if (EXCLUDED_PACKAGES.includes(name)) return `excluded package ${name}`;
  for (const [label, re] of EXCLUDED_PRODUCTS) if (re.test(name)) return `excluded product ${label} (${re})`;
  return null;
}

export function readJson(file, fallback) {
  if (!existsSync(file)) return fallback;
  return JSON.parse(readFileSync(file, "utf8"));
}

export function loadServerFiles() {
  if (!existsSync(SERVERS_DIR)) return [];
  return readdirSync(SERVERS_DIR)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => ({ file: `servers/${f}`, data: JSON.parse(readFileSync(join(SERVERS_DIR, f), "utf8")) }));
}
