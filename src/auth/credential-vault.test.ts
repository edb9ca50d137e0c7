import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import Database from "better-sqlite3";
import { tempDir } from "../../test/helpers/servers.ts";
import { VAULT_KEY_ENV } from "../privacy/vault-crypto.ts";
import type { SharedStore } from "../store/domains.ts";
import { DATABASE_FILE } from "../store/open-database.ts";
import { openMemorySharedStore, openSqliteSharedStore } from "../store/sqlite-shared-store.ts";
import { CREDENTIALS_KEY_FILE, CredentialKeyError, createKeyFile } from "./credential-key.ts";
import { CredentialVault } from "./credential-vault.ts";

const TOKEN = "gho_SECRET_access_token_5f3a9c";
const REFRESH = "ghr_SECRET_refresh_token_77b1";
const tokens = { access_token: TOKEN, refresh_token: REFRESH, expires_at: 1_700_000_000 };

function recorder() {
  const warnings: string[] = [];
  return { warnings, logger: { warn: (message: string) => warnings.push(message) } };
}

const envKey = () => ({ [VAULT_KEY_ENV]: randomBytes(32).toString("base64") });

/** A store in a fresh data directory; `done` closes it and removes the directory. */
function persistent(prefix: string) {
  const dir = tempDir(prefix);
  const stores: SharedStore[] = [];
  return {
    dir: dir.path,
    open(): SharedStore {
      const store = openSqliteSharedStore({ dir: dir.path });
      stores.push(store);
      return store;
    },
    async done() {
      for (const store of stores) await store.close();
      dir.remove();
    },
  };
}

const isKeyError = (pattern: RegExp) => (error: unknown) =>
  error instanceof CredentialKeyError && error.code === "auth.credential_key" && pattern.test(error.message);

describe("CredentialVault", () => {
  it("round trip with an in-memory store and key: put, get, list, delete", async () => {
    const store = openMemorySharedStore({ now: () => 42 });
    try {
      const vault = CredentialVault.open({ store, env: {} });
      assert.equal(vault.keySource, "memory");
      assert.equal(vault.keyFile, undefined);
      assert.equal(await vault.get("github"), undefined);
      await vault.put("github", tokens);
      await vault.put("notion", { client_id: "abc" });
      assert.deepEqual(await vault.get<typeof tokens>("github"), tokens);
      assert.deepEqual(await vault.list(), [
        { server: "github", updatedAt: 42 },
        { server: "notion", updatedAt: 42 },
      ]);
      await vault.put("github", { ...tokens, access_token: "new" });
      assert.equal((await vault.get<typeof tokens>("github"))?.access_token, "new");
      assert.equal(await vault.delete("github"), true);
      assert.equal(await vault.delete("github"), false);
      assert.equal(await vault.get("github"), undefined);
      await assert.rejects(vault.put("x", undefined), TypeError);
    } finally {
      await store.close();
    }
  });

  it("what reaches the database holds no plaintext", async () => {
    const data = persistent("cred-raw");
    try {
      const store = data.open();
      await CredentialVault.open({ store, dataDir: data.dir, env: {} }).put("github", tokens);
      await store.close();
      const db = new Database(join(data.dir, DATABASE_FILE), { readonly: true });
      const row = db.prepare("SELECT blob FROM oauth_credentials WHERE server = 'github'").get() as {
        blob: Buffer;
      };
      db.close();
      assert.ok(row.blob.length > 0);
      for (const secret of [TOKEN, REFRESH, "access_token", "SECRET"]) {
        assert.equal(row.blob.includes(secret), false, `${secret} is in the stored bytes`);
      }
      // Nor in the database files as a whole (WAL checkpointed on close).
      for (const file of readdirSync(data.dir).filter((f) => f.startsWith(DATABASE_FILE))) {
        assert.equal(readFileSync(join(data.dir, file)).includes(TOKEN), false, `token in ${file}`);
      }
    } finally {
      await data.done();
    }
  });

  it("another key cannot open it: one warning naming the server, never the contents; undefined", async () => {
    const store = openMemorySharedStore();
    try {
      await CredentialVault.open({ store, env: envKey() }).put("github", tokens);
      const { warnings, logger } = recorder();
      const other = CredentialVault.open({ store, env: envKey(), logger });
      assert.equal(other.keySource, "env");
      assert.equal(await other.get("github"), undefined);
      assert.equal(await other.get("github"), undefined);
      assert.equal(warnings.length, 1, "warned once for the same blob");
      assert.match(warnings[0] ?? "", /server "github" cannot be opened: .*TOOLSCRIPT_VAULT_KEY/);
      assert.match(warnings[0] ?? "", /toolscript auth login github/);
      assert.ok(!warnings.some((w) => w.includes("SECRET")));
      // Still listed (so `auth status` can show it), and a new login replaces it.
      assert.deepEqual(
        (await other.list()).map((c) => c.server),
        ["github"],
      );
      await other.put("github", tokens);
      assert.deepEqual(await other.get("github"), tokens);
      assert.equal(warnings.length, 1);
    } finally {
      await store.close();
    }
  });

  it("a blob moved to another server's name, or altered, does not open", async () => {
    const store = openMemorySharedStore();
    try {
      const { warnings, logger } = recorder();
      const vault = CredentialVault.open({ store, env: {}, logger });
      await vault.put("github", tokens);
      const blob = await store.credentials.get("github");
      assert.ok(blob);
      await store.credentials.put("attacker", blob);
      assert.equal(await vault.get("attacker"), undefined);
      assert.match(warnings[0] ?? "", /server "attacker" cannot be opened: .*for another server/);

      const envelope = JSON.parse(Buffer.from(blob).toString("utf8")) as { data: string };
      const data = Buffer.from(envelope.data, "base64");
      data[0] = (data[0] ?? 0) ^ 1;
      await store.credentials.put(
        "github",
        Buffer.from(JSON.stringify({ ...envelope, data: data.toString("base64") })),
      );
      assert.equal(await vault.get("github"), undefined);
      await store.credentials.put("notion", Buffer.from("not sealed at all"));
      assert.equal(await vault.get("notion"), undefined);
      assert.equal(warnings.length, 3);
      assert.match(warnings[2] ?? "", /server "notion" cannot be opened: they are not sealed credentials/);
    } finally {
      await store.close();
    }
  });

  it("creates a 0600 key file once and reuses it: a token stored before a restart opens after it", async () => {
    const data = persistent("cred-file");
    try {
      const first = CredentialVault.open({ store: data.open(), dataDir: data.dir, env: {} });
      const file = join(data.dir, CREDENTIALS_KEY_FILE);
      assert.equal(first.keySource, "file");
      assert.equal(first.keyFile, file);
      assert.equal(statSync(file).mode & 0o777, 0o600);
      const key = readFileSync(file, "utf8");
      assert.equal(Buffer.from(key.trim(), "base64").length, 32);
      await first.put("github", tokens);
      assert.deepEqual(
        readdirSync(data.dir).filter((f) => f.includes(CREDENTIALS_KEY_FILE)),
        [CREDENTIALS_KEY_FILE],
        "no temporary file left behind",
      );

      // A second gateway on the same directory (here: after the first store is closed too).
      const { warnings, logger } = recorder();
      const second = CredentialVault.open({ store: data.open(), dataDir: data.dir, env: {}, logger });
      assert.deepEqual(await second.get("github"), tokens);
      assert.equal(readFileSync(file, "utf8"), key, "the existing key file is never replaced");
      assert.deepEqual(warnings, []);
    } finally {
      await data.done();
    }
  });

  it("a key file another gateway created first is kept and used, never replaced", async () => {
    const data = persistent("cred-race");
    try {
      const file = join(data.dir, CREDENTIALS_KEY_FILE);
      const theirs = randomBytes(32);
      writeFileSync(file, theirs.toString("base64"), { mode: 0o600 });
      // Our create lost the race: it finds their file in place when it links its own.
      assert.deepEqual(createKeyFile(data.dir, file), theirs);
      assert.equal(readFileSync(file, "utf8"), theirs.toString("base64"));
      assert.deepEqual(readdirSync(data.dir), [CREDENTIALS_KEY_FILE], "the temporary file is removed");
    } finally {
      await data.done();
    }
  });

  it("finds the data directory from the store when it is not given", async () => {
    const data = persistent("cred-derive");
    try {
      const vault = CredentialVault.open({ store: data.open(), env: {} });
      assert.equal(vault.keySource, "file");
      assert.equal(vault.keyFile, join(data.dir, CREDENTIALS_KEY_FILE));
      assert.ok(existsSync(join(data.dir, CREDENTIALS_KEY_FILE)));
    } finally {
      await data.done();
    }
  });

  it("refuses a key file group or others can read, naming the file", async () => {
    const data = persistent("cred-mode");
    try {
      const file = join(data.dir, CREDENTIALS_KEY_FILE);
      writeFileSync(file, randomBytes(32).toString("base64"));
      chmodSync(file, 0o644);
      const store = data.open();
      assert.throws(
        () => CredentialVault.open({ store, dataDir: data.dir, env: {} }),
        (error: unknown) =>
          isKeyError(/mode is 0644: group or others can access it; it must be 0600/)(error) &&
          (error as Error).message.includes(file) &&
          (error as CredentialKeyError).data.file === file,
      );
    } finally {
      await data.done();
    }
  });

  it("refuses a key file of the wrong length or not base64, naming the file", async () => {
    const data = persistent("cred-length");
    try {
      const file = join(data.dir, CREDENTIALS_KEY_FILE);
      const store = data.open();
      writeFileSync(file, randomBytes(16).toString("base64"), { mode: 0o600 });
      assert.throws(
        () => CredentialVault.open({ store, dataDir: data.dir, env: {} }),
        isKeyError(
          new RegExp(`key file ${file} cannot be used: it must hold 32 bytes in base64, got 16 bytes`),
        ),
      );
      writeFileSync(file, "not base64!");
      assert.throws(
        () => CredentialVault.open({ store, dataDir: data.dir, env: {} }),
        isKeyError(/text that is not base64/),
      );
    } finally {
      await data.done();
    }
  });

  it("TOOLSCRIPT_VAULT_KEY wins over the key file, and none is created when it is set", async () => {
    const data = persistent("cred-env");
    try {
      const store = data.open();
      const env = envKey();
      const withEnv = CredentialVault.open({ store, dataDir: data.dir, env });
      assert.equal(withEnv.keySource, "env");
      assert.equal(existsSync(join(data.dir, CREDENTIALS_KEY_FILE)), false);
      await withEnv.put("github", tokens);

      const withFile = CredentialVault.open({ store, dataDir: data.dir, env: {}, logger: recorder().logger });
      assert.equal(withFile.keySource, "file");
      assert.equal(await withFile.get("github"), undefined, "the file key is another key");

      const again = CredentialVault.open({ store, dataDir: data.dir, env });
      assert.equal(again.keySource, "env");
      assert.deepEqual(await again.get("github"), tokens);
    } finally {
      await data.done();
    }
  });

  it("a malformed TOOLSCRIPT_VAULT_KEY is an error, never a silent fallback", async () => {
    const store = openMemorySharedStore();
    try {
      assert.throws(
        () => CredentialVault.open({ store, env: { [VAULT_KEY_ENV]: randomBytes(8).toString("base64") } }),
        isKeyError(/TOOLSCRIPT_VAULT_KEY must be 32 bytes/),
      );
    } finally {
      await store.close();
    }
  });
});
