// `toolscript eval` on the shipped demo tasks (examples/eval/demo-tasks.jsonl), both
// modes, with an oracle model behind the Anthropic API stub on loopback (no model is
// reachable here). The oracle always finds the right answer, so the table compares
// what each mode costs: the stub bills input tokens as the legacy Claude tokenizer
// counts the request it received (system, tools, messages), output tokens likewise.
import { join } from "node:path";
import { demoSetup } from "../src/cli/demo-setup.ts";
import { parseConfig } from "../src/config/parse.ts";
import { formatEvalReport } from "../src/eval/report.ts";
import { runEval } from "../src/eval/run-eval.ts";
import { readEvalTasks } from "../src/eval/tasks-file.ts";
import { createModelClient } from "../src/llm/create-model-client.ts";
import { claudeLegacyTokenizer } from "../src/output/tokenizer.ts";
import { DEMO_ORACLE } from "../test/helpers/demo-oracle.ts";
import { startAnthropicStub } from "../test/helpers/model-stubs/anthropic-messages-stub.ts";
import { lastToolResults, type StubAnswer, type StubRequest } from "../test/helpers/model-stubs/script.ts";
import { REPO_ROOT } from "../test/helpers/servers.ts";
import { progress } from "./table.ts";

type Row = Record<string, string>;

function rowsOf(csv: string): Row[] {
  const [header = "", ...lines] = csv.trim().split("\n");
  const columns = header.split(",");
  return lines.map((line) => Object.fromEntries(line.split(",").map((value, i) => [columns[i], value])));
}

const revenue = (row: Row) => Number(row.quantity) * Number(row.unit_price);

function top(tally: Map<string, number>): [string, number] {
  return [...tally].sort((a, b) => b[1] - a[1])[0] ?? ["", 0];
}

function tallyBy(rows: Row[], key: string, value: (row: Row) => number): Map<string, number> {
  const tally = new Map<string, number>();
  for (const row of rows) tally.set(row[key] ?? "", (tally.get(row[key] ?? "") ?? 0) + value(row));
  return tally;
}

/** What the oracle answers for a CSV task once it has read the file (direct mode). */
function csvAnswer(id: string, rows: Row[]): string {
  switch (id) {
    case "order-count":
      return `${rows.length}`;
    case "top-product":
      return top(tallyBy(rows, "product", revenue))[0];
    case "busiest-region":
      return top(tallyBy(rows, "region", () => 1)).join(" with ");
    case "lamps-east":
      return `${rows.filter((r) => r.product === "lamp" && r.region === "east").reduce((s, r) => s + Number(r.quantity), 0)}`;
    case "largest-order":
      return [...rows].sort((a, b) => revenue(b) - revenue(a))[0]?.order_id ?? "";
    default:
      return `${Math.round(rows.filter((r) => r.region === "south").reduce((s, r) => s + revenue(r), 0))}`;
  }
}

const tokens = (value: unknown) => claudeLegacyTokenizer.count(JSON.stringify(value));

/** The oracle: code mode sends the task's program; direct mode walks the upstream tools a turn at a time. */
function oracle(taskIds: Map<string, string>) {
  return (request: StubRequest): StubAnswer => {
    const body = request.body;
    const inputTokens = tokens({ system: body.system, tools: body.tools, messages: body.messages });
    const answer = (reply: StubAnswer): StubAnswer => ({
      ...reply,
      usage: { inputTokens, outputTokens: tokens(reply.text ?? reply.toolUses) },
    });
    const first = body.messages[0]?.content;
    const asked = typeof first === "string" ? first : first?.[0]?.text;
    const id = taskIds.get(asked) ?? "";
    const results = (body.messages as Array<{ role: string; content: unknown }>).filter(
      (message) => message.role === "user" && Array.isArray(message.content),
    ).length;
    const last = lastToolResults(body)[0]?.content ?? "";
    const names = (body.tools as Array<{ name: string }>).map((tool) => tool.name);
    if (names.includes("execute_code")) {
      if (results <= 1)
        return answer({
          toolUses: [{ name: "execute_code", input: { code: DEMO_ORACLE[id] ?? "", typecheck: false } }],
        });
      return answer({ text: `The answer: ${last}` });
    }
    return answer(directStep(id, results, last, body.messages, names));
  };
}

// Direct mode, turn by turn: the tool results so far decide the next call.
function directStep(
  id: string,
  turn: number,
  last: string,
  messages: unknown[],
  names: string[],
): StubAnswer {
  if (id === "everything-sum") {
    const sum = names.find((name) => /^everything__get.sum$/.test(name)) ?? "everything__get-sum";
    return turn <= 1
      ? { toolUses: [{ name: sum, input: { a: 1234, b: 5678 } }] }
      : { text: `The sum is ${/\d+/.exec(last.replace(/1234|5678/g, ""))?.[0] ?? last}.` };
  }
  if (turn <= 1) return { toolUses: [{ name: "filesystem__list_allowed_directories", input: {} }] };
  if (turn === 2) {
    const dir = last.split("\n").find((line) => line.startsWith("/")) ?? "";
    return { toolUses: [{ name: "filesystem__read_text_file", input: { path: join(dir, "sales.csv") } }] };
  }
  const csv = findCsv(messages);
  const value = csvAnswer(id, rowsOf(csv));
  if (id !== "memory-round-trip") return { text: `The answer: ${value}` };
  const steps: StubAnswer[] = [
    {
      toolUses: [
        {
          name: "memory__create_entities",
          input: { entities: [{ name: "south-region", entityType: "region", observations: [] }] },
        },
      ],
    },
    {
      toolUses: [
        {
          name: "memory__add_observations",
          input: { observations: [{ entityName: "south-region", contents: [value] }] },
        },
      ],
    },
    { toolUses: [{ name: "memory__open_nodes", input: { names: ["south-region"] } }] },
    { text: `Stored and read back: ${value}` },
  ];
  return steps[Math.min(turn - 3, steps.length - 1)] ?? { text: value };
}

/** The CSV the file read returned, from the conversation so far. */
function findCsv(messages: unknown[]): string {
  for (const message of messages as Array<{ content: unknown }>) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as Array<{ type: string; content?: unknown }>) {
      if (block.type !== "tool_result") continue;
      const text = Array.isArray(block.content)
        ? (block.content as Array<{ text?: string }>).map((part) => part.text ?? "").join("")
        : String(block.content ?? "");
      if (text.startsWith("order_id,")) return text;
    }
  }
  return "";
}

export async function benchEvalDemo(): Promise<void> {
  const tasks = await readEvalTasks(join(REPO_ROOT, "examples/eval/demo-tasks.jsonl"));
  const stub = await startAnthropicStub(oracle(new Map(tasks.map((task) => [task.task, task.id]))));
  const setup = demoSetup();
  try {
    const { llm } = parseConfig(
      {
        toolscript: {
          llm: { provider: "anthropic", model: "oracle-on-stub", baseUrl: stub.baseUrl, apiKey: "stub" },
        },
      },
      { baseDir: setup.config.baseDir, env: {} },
    ).settings;
    const config = { ...setup.config, settings: { ...setup.config.settings, llm } };
    const model = createModelClient(config.settings.llm, { env: {} });
    const report = await runEval({
      config,
      tasks,
      modes: ["direct", "code"],
      model,
      onProgress: (event) => {
        if (event.type === "task_finished")
          progress(`${event.result.mode} ${event.result.id}: ${event.result.passed ? "passed" : "failed"}`);
      },
    });
    process.stdout.write(
      `\n### toolscript eval on examples/eval/demo-tasks.jsonl (oracle model on the Anthropic stub)\n\n${formatEvalReport(report)}\n`,
    );
  } finally {
    await stub.close();
    setup.cleanup();
  }
}
