import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { type PostgresCluster, startPostgres } from "../../test/helpers/postgres-cluster.ts";
import { VAULT_KEY_ENV } from "../privacy/vault-crypto.ts";
import { openPostgresStore } from "../store/postgres/postgres-store.ts";
import { CredentialKeyError } from "./credential-key.ts";
import { CredentialVault } from "./credential-vault.ts";

const tokens = { access_token: "gho_SECRET_pg", refresh_token: "ghr_SECRET_pg" };

let cluster: PostgresCluster;
let databases = 0;
before(async () => {
  cluster = await startPostgres();
});
after(() => cluster?.stop());

const needsKey = (error: unknown) =>
  error instanceof CredentialKeyError &&
  error.code === "auth.credential_key" &&
  error.message.includes(VAULT_KEY_ENV) &&
  /PostgreSQL/.test(error.message);

describe("CredentialVault on PostgreSQL", () => {
  it("without TOOLSCRIPT_VAULT_KEY: reading or storing a credential fails naming the variable; listing works", async () => {
    const store = await openPostgresStore({ url: await cluster.createDatabase(`cred_${++databases}`) });
    try {
      const vault = CredentialVault.open({ store, env: {}, dataDir: "/nonexistent" });
      assert.equal(vault.keySource, "missing");
      await assert.rejects(vault.put("github", tokens), needsKey);
      await assert.rejects(vault.get("github"), needsKey);
      assert.deepEqual(await vault.list(), []);
      assert.equal(await vault.delete("github"), false);
    } finally {
      await store.close();
    }
  });

  it("with TOOLSCRIPT_VAULT_KEY: what one replica stores, another opens; a replica with another key cannot", async () => {
    const url = await cluster.createDatabase(`cred_${++databases}`);
    const [a, b] = [await openPostgresStore({ url }), await openPostgresStore({ url })];
    try {
      const env = { [VAULT_KEY_ENV]: randomBytes(32).toString("base64") };
      const first = CredentialVault.open({ store: a, env });
      assert.equal(first.keySource, "env");
      await first.put("github", tokens);
      assert.deepEqual(await CredentialVault.open({ store: b, env }).get("github"), tokens);
      const warnings: string[] = [];
      const stranger = CredentialVault.open({
        store: b,
        env: { [VAULT_KEY_ENV]: randomBytes(32).toString("base64") },
        logger: { warn: (message) => warnings.push(message) },
      });
      assert.equal(await stranger.get("github"), undefined);
      assert.match(warnings[0] ?? "", /server "github" cannot be opened/);
      assert.deepEqual(
        (await first.list()).map((info) => info.server),
        ["github"],
      );
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
