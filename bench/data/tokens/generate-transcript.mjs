#!/usr/bin/env node
// Writes a long, deterministic meeting transcript (~50k tokens) for the
// document → CRM workload: seeded, so every run counts the same text.
import { writeFileSync } from "node:fs";

let seed = 42;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
const pick = (items) => items[Math.floor(random() * items.length)];
const speakers = ["Dana (Acme, VP Operations)", "Luis (Acme, IT lead)", "Priya (our AE)", "Tom (our SE)", "Mei (Acme, procurement)"];
const openers = ["So", "Right,", "Okay, and", "Just to add,", "From our side,", "Honestly,", "To be clear,", "Building on that,"];
const topics = [
  "the rollout across the three warehouses",
  "single sign-on with their Okta tenant",
  "the data retention policy for shipment records",
  "pricing for the enterprise tier at 400 seats",
  "the pilot results from the Rotterdam site",
  "API rate limits during the holiday peak",
  "migrating eleven years of order history",
  "the security questionnaire and the SOC 2 report",
  "training for the night-shift supervisors",
  "integration with their SAP instance",
  "the renewal date and multi-year discount",
  "dashboards for the regional managers",
];
const clauses = [
  "we need a firm timeline before the board meeting in March",
  "the team was worried about downtime during the cutover",
  "legal wants the data processing addendum signed first",
  "the pilot cut picking errors by about eighteen percent",
  "budget is approved but only if we start this quarter",
  "they asked whether the mobile app works offline",
  "we promised a written proposal by Friday",
  "their current vendor contract ends in June",
  "the warehouse managers want weekly exception reports",
  "procurement needs three references in logistics",
  "the integration should not require custom code on their side",
  "they would like a sandbox environment for testing",
];
const lines = [];
let seconds = 0;
for (let i = 0; lines.join("\n").length < 205_000; i++) {
  seconds += 8 + Math.floor(random() * 40);
  const time = new Date(seconds * 1000).toISOString().slice(11, 19);
  const sentence = `${pick(openers)} on ${pick(topics)}, ${pick(clauses)}, and ${pick(clauses)}.`;
  lines.push(`[${time}] ${pick(speakers)}: ${sentence}`);
}
const out = new URL("./transcript.txt", import.meta.url);
writeFileSync(out, `Meeting transcript: Acme Logistics discovery call (recorded 2026-11-18)\n\n${lines.join("\n")}\n`);
process.stderr.write(`wrote ${lines.length} lines to ${out.pathname}\n`);
