import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type PostgresCluster, startPostgres } from "../../test/helpers/postgres-cluster.ts";
import { until } from "../../test/helpers/traced-serve.ts";
import { Catalog } from "../catalog/catalog.ts";
import { LexicalSearchIndex } from "../search/index.ts";
import type { SharedStore } from "../store/domains.ts";
import { openPostgresStore } from "../store/postgres/postgres-store.ts";
import { openMemorySharedStore } from "../store/sqlite-shared-store.ts";
import type { SaveSkillInput } from "../store/types.ts";
import { SkillCheckError } from "./errors.ts";
import { SkillLibrary } from "./skill-library.ts";

/**
 * The library over each engine: what it saves shows at once, what is saved
 * through the store by anyone else (another replica on PostgreSQL; on SQLite
 * the store's own callers) reaches its synchronous reads, search and listeners.
 */
interface Engine {
  /** The library's store, and a second writer on the same data ("another replica"). */
  open(): Promise<{ store: SharedStore; other: SharedStore; close(): Promise<void> }>;
}

const DOUBLER = "/** Doubles a number. */\nexport function double(n: number): number {\n  return n * 2;\n}\n";

function stored(name: string, overrides: Partial<SaveSkillInput> = {}): SaveSkillInput {
  return {
    name,
    code: "def fold(values):\n    return values\n",
    description: `Folds parcels of ${name}.`,
    declaration: "def fold(values): ...\n",
    language: "python",
    ...overrides,
  };
}

async function libraryOn(store: SharedStore) {
  const changed: string[] = [];
  const library = new SkillLibrary({ catalog: new Catalog([]), index: new LexicalSearchIndex() });
  library.onChange((name) => changed.push(name));
  await library.attach(store);
  return { library, changed };
}

const found = (library: SkillLibrary, query: string, session?: string) =>
  library.search(query, { session }).map((match) => match.result.path);

function describeLibrary(engine: string, target: Engine): void {
  describe(`SkillLibrary on ${engine}`, () => {
    it("attach loads the skills already stored and indexes them for search", async () => {
      const { store, other, close } = await target.open();
      try {
        await other.skills.save(stored("ledger", { description: "Reconciles the ledger of invoices." }));
        const { library } = await libraryOn(store);
        assert.equal(library.get("ledger")?.version, 1);
        assert.deepEqual(found(library, "reconcile invoices ledger"), ["skills/ledger"]);
      } finally {
        await close();
      }
    });

    it("a save shows at once (get, list, search, listeners); private ones only to their session; older versions from the store; removal drops it", async () => {
      const { store, close } = await target.open();
      try {
        const { library, changed } = await libraryOn(store);
        const first = await library.save({ name: "doubler", code: DOUBLER, description: "Doubles numbers." });
        assert.deepEqual(first.exports, ["double"]);
        const second = await library.save({
          name: "doubler",
          code: `${DOUBLER}// v2\n`,
          description: "Doubles numbers twice over.",
        });
        assert.equal(library.get("doubler")?.version, 2);
        assert.equal(second.version, 2);
        assert.deepEqual(found(library, "doubles numbers"), ["skills/doubler"]);
        assert.equal((await library.version("doubler", { version: 1 }))?.description, "Doubles numbers.");
        assert.deepEqual(
          (await library.versions("doubler")).map((skill) => skill.version),
          [1, 2],
        );

        await library.save({
          name: "secret",
          code: "export const hidden = 1;\n",
          description: "Keeps the secret sauce.",
          visibility: "private",
          session: "s1",
        });
        assert.equal(library.get("secret", "s2"), undefined);
        assert.equal(library.get("secret"), undefined);
        assert.equal(library.get("secret", "s1")?.visibility, "private");
        assert.deepEqual(
          library.list({ session: "s1" }).map((skill) => skill.name),
          ["doubler", "secret"],
        );
        assert.deepEqual(
          library.list().map((skill) => skill.name),
          ["doubler"],
        );
        assert.deepEqual(found(library, "secret sauce", "s2"), []);
        assert.deepEqual(found(library, "secret sauce", "s1"), ["skills/secret"]);

        assert.equal(await library.remove("secret", { session: "s2" }), false, "not visible to s2");
        assert.equal(await library.remove("doubler"), true);
        assert.equal(library.get("doubler"), undefined);
        assert.deepEqual(found(library, "doubles numbers"), []);
        await assert.rejects(library.load("doubler", "s1"), (error: unknown) => {
          assert.ok(error instanceof SkillCheckError);
          assert.equal(error.code, "skill.not_found");
          return true;
        });
        await library.settled();
        // Each change told once, though the store also tells of this library's own writes.
        assert.deepEqual(changed, ["doubler", "doubler", "secret", "doubler"]);
      } finally {
        await close();
      }
    });

    it("what another writer saves or removes through the store reaches get, list, search and listeners", async () => {
      const { store, other, close } = await target.open();
      try {
        const { library, changed } = await libraryOn(store);
        await other.skills.save(stored("parcels", { description: "Folds parcels of origami paper." }));
        await until("the save", () => library.get("parcels"), 5_000);
        assert.deepEqual(found(library, "origami paper"), ["skills/parcels"]);
        assert.deepEqual(library.pythonSources()["skills.parcels"], "def fold(values):\n    return values\n");
        await other.skills.save(stored("parcels", { description: "Folds parcels of kraft paper." }));
        await until(
          "the new version",
          () => (library.get("parcels")?.version === 2 ? true : undefined),
          5_000,
        );
        assert.deepEqual(found(library, "kraft"), ["skills/parcels"]);
        await other.skills.remove("parcels");
        await until("the removal", () => (library.get("parcels") ? undefined : true), 5_000);
        assert.deepEqual(found(library, "kraft"), []);
        await library.settled();
        assert.deepEqual(changed, ["parcels", "parcels", "parcels"]);
      } finally {
        await close();
      }
    });

    it("a private skill goes when its session is deleted", async () => {
      const { store, other, close } = await target.open();
      try {
        const { library } = await libraryOn(store);
        await library.save({
          name: "mine",
          code: "export const mine = 1;\n",
          description: "Mine.",
          visibility: "private",
          session: "s1",
        });
        assert.equal(library.get("mine", "s1")?.name, "mine");
        await other.sessions.delete("s1");
        await until(
          "the removal",
          () => (library.list({ includePrivate: true }).length === 0 ? true : undefined),
          5_000,
        );
      } finally {
        await close();
      }
    });

    it("without a store, reads are empty and writes say to start the gateway", async () => {
      const library = new SkillLibrary({ catalog: new Catalog([]), index: new LexicalSearchIndex() });
      assert.deepEqual(library.list(), []);
      assert.equal(library.get("x"), undefined);
      await assert.rejects(
        library.save({ name: "x", code: "export const x = 1;", description: "x" }),
        (error: unknown) => error instanceof SkillCheckError && error.code === "skill.unavailable",
      );
    });
  });
}

describeLibrary("SQLite (memory)", {
  async open() {
    const store = openMemorySharedStore();
    return { store, other: store, close: () => store.close() };
  },
});

let cluster: PostgresCluster | undefined;
let databases = 0;
describe("on PostgreSQL", () => {
  before(async () => {
    cluster = await startPostgres();
  });
  after(() => cluster?.stop());

  describeLibrary("PostgreSQL (two stores on one database)", {
    async open() {
      if (!cluster) throw new Error("the cluster did not start");
      const url = await cluster.createDatabase(`library_${++databases}`);
      const store = await openPostgresStore({ url });
      const other = await openPostgresStore({ url });
      return {
        store,
        other,
        close: async () => {
          await Promise.all([store.close(), other.close()]);
        },
      };
    },
  });
});
