// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} references in plain strings are what these tests feed the config.
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { ConfigIssue } from "./issues.ts";
import { parseConfig, validateConfig } from "./parse.ts";

const BASE = join("/", "home", "me", "project");
const PG = "postgres://ts:pw@db.internal:5432/toolscript";

function storageOf(storage: unknown, env: Record<string, string> = {}) {
  return parseConfig({ toolscript: storage === undefined ? {} : { storage } }, { baseDir: BASE, env })
    .settings.storage;
}

function issuesOf(storage: unknown, env: Record<string, string> = {}): ConfigIssue[] {
  const result = validateConfig({ toolscript: { storage } }, { baseDir: BASE, env });
  assert.equal(result.ok, false, "expected the config to be invalid");
  return result.ok ? [] : result.issues;
}

describe("settings: storage.url", () => {
  it("is absent by default: SQLite in storage.dir", () => {
    assert.deepEqual(storageOf(undefined), { dir: join(BASE, ".toolscript") });
  });

  it("accepts postgres:// and postgresql:// URLs, with ${VAR} expanded", () => {
    assert.equal(storageOf({ url: PG }).url, PG);
    assert.equal(storageOf({ url: "postgresql://h/db" }).url, "postgresql://h/db");
    assert.equal(storageOf({ url: "${DB_URL}" }, { DB_URL: PG }).url, PG);
  });

  it("falls back to TOOLSCRIPT_STORAGE_URL when the config has none; the config wins", () => {
    assert.equal(storageOf(undefined, { TOOLSCRIPT_STORAGE_URL: PG }).url, PG);
    assert.equal(storageOf({ dir: "state" }, { TOOLSCRIPT_STORAGE_URL: PG }).url, PG);
    assert.equal(
      storageOf({ url: "postgres://other/db" }, { TOOLSCRIPT_STORAGE_URL: PG }).url,
      "postgres://other/db",
    );
  });

  it("names toolscript.storage.url when it is not a PostgreSQL URL, from the file or the variable", () => {
    assert.deepEqual(issuesOf({ url: "mysql://h/db" }), [
      { path: "toolscript.storage.url", message: "must be a postgres:// or postgresql:// URL" },
    ]);
    assert.deepEqual(
      issuesOf({}, { TOOLSCRIPT_STORAGE_URL: "/var/lib/db" }).map((issue) => issue.path),
      ["toolscript.storage.url"],
    );
  });
});
