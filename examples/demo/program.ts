// The ToolScript demo: one program, three MCP servers, and only a short report back to the model.
// `context.dataDir` is the folder the filesystem server was started on.
interface Sale {
  region: string;
  product: string;
  month: string;
  revenue: number;
}

// 1. Read a 20,000-row CSV through server-filesystem. ~900 KB that never reaches the model.
const file = await tools.filesystem.read_text_file({ path: `${context.dataDir}/sales.csv` });
const [header, ...lines] = file.content.trim().split("\n");
const columns = header.split(",");
const at = (name: string) => columns.indexOf(name);
const sales: Sale[] = lines.map((line) => {
  const cells = line.split(",");
  return {
    region: cells[at("region")],
    product: cells[at("product")],
    month: cells[at("date")].slice(0, 7),
    revenue: Number(cells[at("quantity")]) * Number(cells[at("unit_price")]),
  };
});

// 2. Aggregate in the sandbox.
const sum = (rows: Sale[], key: keyof Sale) => {
  const totals = new Map<string, number>();
  for (const row of rows) totals.set(String(row[key]), (totals.get(String(row[key])) ?? 0) + row.revenue);
  return [...totals].sort((a, b) => b[1] - a[1]);
};
const byProduct = sum(sales, "product");
const byRegion = sum(sales, "region");
const byMonth = sum(sales, "month");
const total = sales.reduce((acc, row) => acc + row.revenue, 0);

// 3. A cross-check through server-everything's get-sum (original name `get-sum`, identifier get_sum).
const check = await tools.everything.get_sum({ a: Math.round(byRegion[0][1]), b: Math.round(byRegion[1][1]) });

// 4. Store the summary in server-memory's knowledge graph; tool errors are caught, not fatal.
const observations = [
  `total revenue ${total.toFixed(0)} over ${sales.length} orders`,
  `top product ${byProduct[0][0]} (${byProduct[0][1].toFixed(0)})`,
  `top region ${byRegion[0][0]} (${byRegion[0][1].toFixed(0)})`,
];
try {
  await tools.memory.create_entities({
    entities: [{ name: "sales-2026", entityType: "report", observations }],
  });
} catch (error) {
  console.warn(`memory server refused the report: ${(error as Error).message}`);
}
const stored = await tools.memory.open_nodes({ names: ["sales-2026"] });

console.log(`parsed ${sales.length} orders from ${(file.content.length / 1024).toFixed(0)} KB of CSV`);
return {
  orders: sales.length,
  totalRevenue: Math.round(total),
  topProducts: byProduct.slice(0, 3).map(([name, revenue]) => ({ name, revenue: Math.round(revenue) })),
  topRegions: byRegion.slice(0, 3).map(([name, revenue]) => ({ name, revenue: Math.round(revenue) })),
  bestMonth: byMonth[0][0],
  everythingSays: check,
  storedInMemory: stored.entities?.[0]?.observations ?? stored,
};
