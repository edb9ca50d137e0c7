// The right answers to the shipped demo tasks, as code-mode programs: what an
// oracle model sends (src/eval/demo-tasks.test.ts, bench/eval-demo.ts).

const READ_SALES = [
  "const dirs = await tools.filesystem.list_allowed_directories({});",
  "const dir = String(dirs.content ?? dirs).split('\\n')[1];",
  'const file = await tools.filesystem.read_text_file({ path: dir + "/sales.csv" });',
  "const [header, ...lines] = file.content.trim().split('\\n');",
  "const cols = header.split(',');",
  "const rows = lines.map((line) => Object.fromEntries(line.split(',').map((v, i) => [cols[i], v])));",
  "const revenue = (r) => Number(r.quantity) * Number(r.unit_price);",
  "const top = (m) => [...m].sort((a, b) => b[1] - a[1])[0];",
  "const tally = (key, value) => { const m = new Map(); for (const r of rows) m.set(r[key], (m.get(r[key]) ?? 0) + value(r)); return m; };",
].join("\n");

/** A program per shipped demo task (examples/eval/demo-tasks.jsonl) that computes its right answer. */
export const DEMO_ORACLE: Record<string, string> = {
  "order-count": `${READ_SALES}\nreturn rows.length;`,
  "top-product": `${READ_SALES}\nreturn top(tally("product", revenue))[0];`,
  "busiest-region": `${READ_SALES}\nreturn top(tally("region", () => 1)).join(" with ");`,
  "lamps-east": `${READ_SALES}\nreturn rows.filter((r) => r.product === "lamp" && r.region === "east").reduce((s, r) => s + Number(r.quantity), 0);`,
  "largest-order": `${READ_SALES}\nreturn [...rows].sort((a, b) => revenue(b) - revenue(a))[0].order_id;`,
  "everything-sum": "return await tools.everything.get_sum({ a: 1234, b: 5678 });",
  "memory-round-trip": [
    READ_SALES,
    'const total = Math.round(rows.filter((r) => r.region === "south").reduce((s, r) => s + revenue(r), 0));',
    'await tools.memory.create_entities({ entities: [{ name: "south-region", entityType: "region", observations: [] }] });',
    'await tools.memory.add_observations({ observations: [{ entityName: "south-region", contents: [String(total)] }] });',
    'const node = await tools.memory.open_nodes({ names: ["south-region"] });',
    "return node.entities[0].observations;",
  ].join("\n"),
};
