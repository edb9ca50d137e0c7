import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after } from "node:test";
import { MEMORY_LOCATION } from "../open-database.ts";
import { openSqliteSharedStore } from "../sqlite-shared-store.ts";
import { describeStoreContract } from "./store-contract.ts";

const folders: string[] = [];
after(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function freshDir(): string {
  const folder = mkdtempSync(join(tmpdir(), "toolscript-contract-"));
  folders.push(folder);
  return folder;
}

// Durability "normal": the contract is about semantics, not fsync (and the machine is shared).
describeStoreContract("SQLite in memory", {
  open: async (now) => openSqliteSharedStore({ dir: MEMORY_LOCATION, now }),
  sharesChanges: false,
  keepsJournal: false,
});

describeStoreContract("SQLite in a data directory", {
  open: async (now) => openSqliteSharedStore({ dir: freshDir(), now, durability: "normal" }),
  openPair: async (now) => {
    const dir = freshDir();
    return [
      openSqliteSharedStore({ dir, now, durability: "normal" }),
      openSqliteSharedStore({ dir, now, durability: "normal" }),
    ];
  },
  sharesChanges: false,
  keepsJournal: true,
});
