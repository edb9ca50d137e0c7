import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, it } from "node:test";
import { createPiiDetector } from "../privacy/detect.ts";
import type { VaultStore } from "../store/domains.ts";
import { openMemorySharedStore } from "../store/sqlite-shared-store.ts";
import { SessionVault } from "./session-vault.ts";

const detector = createPiiDetector();
const key = randomBytes(32);

/** The store's vaults, counting writes; `losing` makes every put lose to "another replica". */
function countingVaults(options: { losing?: boolean } = {}) {
  const store = openMemorySharedStore();
  const counts = { puts: 0, gets: 0 };
  const vaults: VaultStore = {
    ...store.vaults,
    put: async (session, blob, expected) => {
      counts.puts++;
      return options.losing ? undefined : store.vaults.put(session, blob, expected);
    },
    get: async (session) => {
      counts.gets++;
      return store.vaults.get(session);
    },
  };
  return { vaults, counts, close: () => store.close() };
}

describe("SessionVault", () => {
  it("writes only when a unit of tokenizing added values", async () => {
    const { vaults, counts, close } = countingVaults();
    const vault = new SessionVault("s", detector, { store: vaults, key });
    await vault.refresh();
    assert.equal(await vault.tokenizeAsync("nothing personal"), "nothing personal");
    assert.equal(counts.puts, 0);
    assert.deepEqual(await vault.tokenizeValueAsync({ to: "ann@example.org" }), { to: "[EMAIL_1]" });
    assert.equal(counts.puts, 1);
    assert.equal(await vault.tokenizeAsync("again ann@example.org"), "again [EMAIL_1]");
    assert.equal(counts.puts, 1, "a known value is no new entry");
    await close();
  });

  it("a unit redone after a lost commit counts its replacements once", async () => {
    const store = openMemorySharedStore();
    const other = new SessionVault("s", detector, { store: store.vaults, key });
    const mine = new SessionVault("s", detector, { store: store.vaults, key });
    await mine.refresh();
    await other.tokenizeAsync("ann@example.org");
    const before = mine.replacedByKind();
    assert.equal(await mine.tokenizeAsync("bob@example.org and cy@example.org"), "[EMAIL_2] and [EMAIL_3]");
    assert.deepEqual(mine.replacedSince(before), { EMAIL: 2 });
    await store.close();
  });

  it("gives up with privacy.vault_contended after losing ten commits in a row, keeping none of it", async () => {
    const { vaults, counts, close } = countingVaults({ losing: true });
    const vault = new SessionVault("s", detector, { store: vaults, key });
    await assert.rejects(vault.tokenizeAsync("ann@example.org"), (error: Error) => {
      assert.equal((error as { code?: string }).code, "privacy.vault_contended");
      assert.match(error.message, /session "s" changed under 10 commits in a row/);
      return true;
    });
    assert.equal(counts.puts, 10);
    const gets = counts.gets;
    // What it could not commit is not kept: the next use reloads before tokenizing.
    assert.equal(vault.detokenize("[EMAIL_1]"), "[EMAIL_1]");
    await assert.rejects(vault.tokenizeAsync("bob@example.org"));
    assert.ok(counts.gets > gets, "reloaded");
    await close();
  });

  it("without persistence it is a vault in memory: no store, nothing to wait for", async () => {
    const vault = new SessionVault("s", detector);
    assert.equal(vault.persistent, false);
    await vault.refresh();
    assert.equal(await vault.tokenizeAsync("ann@example.org"), "[EMAIL_1]");
    assert.equal(vault.detokenize("[EMAIL_1]"), "ann@example.org");
    assert.deepEqual(vault.replacedByKind(), new Map([["EMAIL", 1]]));
  });
});
