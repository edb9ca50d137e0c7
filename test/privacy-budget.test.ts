import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { Gateway } from "../src/gateway/gateway.ts";
import { FILESYSTEM_JS, MEMORY_JS, REPO_ROOT, tempDir } from "./helpers/servers.ts";

const dir = tempDir("privacy");
after(() => dir.remove());

function gateway(toolscript: Record<string, unknown> = {}): Gateway {
  return new Gateway({
    config: {
      mcpServers: {
        memory: {
          command: process.execPath,
          args: [MEMORY_JS],
          env: { MEMORY_FILE_PATH: join(dir.path, "memory.jsonl") },
        },
        filesystem: {
          command: process.execPath,
          args: [FILESYSTEM_JS, join(REPO_ROOT, "examples/demo/data")],
        },
      },
      toolscript: { storage: { dir: join(dir.path, "store") }, ...toolscript },
    },
  });
}

describe("PII tokenization end to end", () => {
  test("the model sees tokens; the upstream receives the real value; tokens are stable", async () => {
    const gw = gateway();
    await gw.start();
    try {
      // Personal data the code produces (e.g. read from a tool) leaves as tokens.
      const first = await gw.execute({
        session: "crm",
        code: 'return { contact: "jane.doe@example.com", phone: "+1 415 555 0100", order: "2026-11-22 v1.2.3 #40231" }',
      });
      const value = first.answer?.structured.result as Record<string, string>;
      assert.equal(value.contact, "[EMAIL_1]");
      assert.equal(value.phone, "[PHONE_1]");
      assert.equal(value.order, "2026-11-22 v1.2.3 #40231", "dates, versions and ids are left alone");
      assert.ok(!first.answer?.text.includes("jane.doe@example.com"));

      // The agent passes the token back into a tool argument: the bridge puts the real value in.
      const second = await gw.execute({
        session: "crm",
        code: `await tools.memory.create_entities({ entities: [{ name: "lead-1", entityType: "lead", observations: ["email: [EMAIL_1]"] }] });
               const graph = await tools.memory.open_nodes({ names: ["lead-1"] });
               return graph.entities[0].observations[0];`,
      });
      assert.equal(second.error, undefined, JSON.stringify(second.error));
      assert.equal(second.answer?.structured.result, "email: [EMAIL_1]", "the same token comes back, stable");
      const stored = readFileSync(join(dir.path, "memory.jsonl"), "utf8");
      assert.match(stored, /email: jane\.doe@example\.com/, "the upstream stored the real address");
      assert.ok(
        !JSON.stringify(second).includes("jane.doe@example.com"),
        "the real address never left the gateway",
      );
    } finally {
      await gw.close();
    }
  });

  test("with a vault key, the vault survives a restart of the gateway", async () => {
    const key = randomBytes(32).toString("base64");
    process.env.TOOLSCRIPT_VAULT_KEY = key;
    try {
      const before = gateway();
      await before.start();
      const made = await before.execute({ session: "persist", code: 'return "write to ann@example.org"' });
      assert.equal(made.answer?.structured.result, "write to [EMAIL_1]");
      await before.close();

      const afterRestart = gateway();
      await afterRestart.start();
      try {
        const other = await afterRestart.execute({
          session: "persist",
          code: 'return "and bob@example.org"',
        });
        assert.equal(
          other.answer?.structured.result,
          "and [EMAIL_2]",
          "numbering continues after the restart",
        );
        const again = await afterRestart.execute({
          session: "persist",
          code: 'return "ann@example.org again"',
        });
        assert.equal(again.answer?.structured.result, "[EMAIL_1] again");
      } finally {
        await afterRestart.close();
      }
      const blob = readFileSync(join(dir.path, "store", "toolscript.db"));
      assert.ok(!blob.includes("ann@example.org"), "the vault is encrypted at rest");
    } finally {
      delete process.env.TOOLSCRIPT_VAULT_KEY;
    }
  });
});

describe("answer budget on real tool output", () => {
  const csv = join(REPO_ROOT, "examples/demo/data/sales.csv");
  for (const strategy of ["truncate", "sample", "summarize", "auto"] as const) {
    test(`${strategy}: 20,000 rows read through server-filesystem fit the budget and say so`, async () => {
      const gw = gateway({ privacy: { pii: false } });
      await gw.start();
      try {
        const response = await gw.execute({
          session: `budget-${strategy}`,
          maxTokens: 800,
          strategy,
          code: `const { content } = await tools.filesystem.read_text_file({ path: ${JSON.stringify(csv)} });
                 const [header, ...rows] = content.trim().split("\\n");
                 const names = header.split(",");
                 return rows.map((row) => Object.fromEntries(row.split(",").map((cell, i) => [names[i], cell])));`,
        });
        const answer = response.answer;
        assert.ok(answer, "an answer was shaped");
        assert.ok(answer.tokens <= 800, `${answer.tokens} tokens`);
        assert.ok(answer.reduced, "the answer says it was reduced");
        assert.match(answer.text, /reduced|cut|sampled|summar/i);
        assert.match(answer.text, /results\/execution-\d+-\d+\.json/, "and where the full value is");
        assert.ok(
          response.tokens && response.tokens.keptInSandbox > 100_000,
          JSON.stringify(response.tokens),
        );
      } finally {
        await gw.close();
      }
    });
  }
});
