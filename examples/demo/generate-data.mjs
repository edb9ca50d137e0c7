#!/usr/bin/env node
// Writes the demo's sales ledger: 20,000 rows from a seeded generator, so every run sees the same data.
import { mkdirSync, writeFileSync } from "node:fs";

const out = process.argv[2] ?? new URL("./data/", import.meta.url).pathname;
let seed = 20261122;
const random = () => {
  seed = (seed * 1664525 + 1013904223) >>> 0;
  return seed / 2 ** 32;
};
const pick = (items) => items[Math.floor(random() * items.length)];
const regions = ["north", "south", "east", "west", "central"];
const products = [
  "laptop",
  "monitor",
  "keyboard",
  "mouse",
  "dock",
  "headset",
  "webcam",
  "chair",
  "desk",
  "lamp",
];
const prices = {
  laptop: 1299,
  monitor: 329,
  keyboard: 89,
  mouse: 39,
  dock: 219,
  headset: 149,
  webcam: 99,
  chair: 449,
  desk: 699,
  lamp: 59,
};
const rows = ["order_id,date,region,product,quantity,unit_price,customer"];
for (let i = 1; i <= 20_000; i++) {
  const product = pick(products);
  const day = String(1 + Math.floor(random() * 28)).padStart(2, "0");
  const month = String(1 + Math.floor(random() * 12)).padStart(2, "0");
  const quantity = 1 + Math.floor(random() * 9);
  const price = (prices[product] * (0.85 + random() * 0.3)).toFixed(2);
  rows.push(
    `${100000 + i},2026-${month}-${day},${pick(regions)},${product},${quantity},${price},C${1000 + Math.floor(random() * 4000)}`,
  );
}
mkdirSync(out, { recursive: true });
writeFileSync(`${out}/sales.csv`, `${rows.join("\n")}\n`);
process.stderr.write(`wrote ${rows.length - 1} rows to ${out}/sales.csv\n`);
