// The client authorization scenarios (`auth/*`) of the conformance suite, for
// scripts/conformance.mjs: which to run at which spec version, running them a few at a
// time within a time budget, and their results table.
//
// Which scenarios: every `auth/*` entry of the `client:` list of the suite's own frozen
// requirement sets (conformance/node_modules/@modelcontextprotocol/conformance/requirements/
// <revision>.yaml), each run at that revision. `conformance client --requirements R` would
// run exactly these (and every other client scenario of R) all at once in parallel, with the
// spec version forced to R; one `--scenario S --spec-version R` per run is the same for S
// (the suite's Mc() takes --spec-version as the scenario's version and passes it to the
// client as MCP_CONFORMANCE_PROTOCOL_VERSION; without it a scenario runs at 2026-07-28 if
// introduced then, else at 2025-11-25) and keeps the load to a few processes on the machine.
// Also run: the two 2025-03-26 back-compat scenarios (metadata and endpoint fallbacks the
// issue asks for), at 2025-03-26, which neither requirement set lists.
// Not run: the `auth/*` extensions (not_scored: extension in both sets), with the reason
// each does not apply to ToolScript's client.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

export const AUTH_VERSIONS = ["2025-11-25", "2026-07-28"];
export const AUTH_BACKCOMPAT_VERSION = "2025-03-26";
export const AUTH_BACKCOMPAT = [
  "auth/2025-03-26-oauth-metadata-backcompat",
  "auth/2025-03-26-oauth-endpoint-fallback",
];

/** Why a suite extension does not apply to ToolScript's client (an interactive user's authorization code flow). */
const NOT_APPLICABLE = {
  "auth/client-credentials-jwt":
    "client_credentials grant with private_key_jwt (RFC 7523): machine-to-machine, no user; ToolScript signs a person in with the authorization code flow and its `oauth` config holds no private key",
  "auth/client-credentials-basic":
    "client_credentials grant: machine-to-machine, no user; ToolScript signs a person in with the authorization code flow",
  "auth/enterprise-managed-authorization":
    "cross-app access (SEP-990): an enterprise IdP's ID token exchanged for an ID-JAG, then a JWT bearer grant; no IdP in ToolScript's config",
  "auth/dpop": "DPoP sender-constrained tokens (RFC 9449, SEP-1932): an extension the issue does not ask for",
  "auth/dpop-nonce": "DPoP server nonces (RFC 9449, SEP-1932): an extension the issue does not ask for",
  "auth/wif-jwt-bearer":
    "workload identity federation (RFC 7523 JWT bearer grant with a workload's token): a machine identity, no user",
};

/** The `auth/*` scenarios of one requirement set's client list, and its not_scored auth entries. */
function readRequirementSet(file) {
  const required = [];
  const notScored = {};
  let section = "";
  let pending; // a not_scored entry being read
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const top = /^([a-z_]+):\s*$/.exec(line);
    if (top) {
      section = top[1];
      continue;
    }
    if (section === "client") {
      const match = /^\s+-\s+(auth\/\S+)\s*$/.exec(line);
      if (match) required.push(match[1]);
    } else if (section === "not_scored") {
      const scenario = /^\s+-\s+scenario:\s+(\S+)/.exec(line);
      if (scenario) pending = scenario[1].startsWith("auth/") ? scenario[1] : undefined;
      const reason = /^\s+reason:\s+(\S+)/.exec(line);
      if (reason && pending) notScored[pending] = reason[1];
    }
  }
  return { required, notScored };
}

/**
 * The runs: [{ scenario, version }] for the requirement sets asked for (all by default) and,
 * unless a set was named, the back-compat scenarios at 2025-03-26; plus the extensions not run.
 */
export function authPlan(suiteDir, { requirements, scenario } = {}) {
  const versions = requirements ? [requirements] : AUTH_VERSIONS;
  const runs = [];
  const notRun = {};
  for (const version of versions) {
    const file = join(suiteDir, "requirements", `${version}.yaml`);
    if (!existsSync(file)) throw new Error(`the suite has no requirement set ${version} (${file})`);
    const set = readRequirementSet(file);
    for (const name of set.required) runs.push({ scenario: name, version });
    for (const [name, reason] of Object.entries(set.notScored))
      notRun[name] = NOT_APPLICABLE[name] ?? `${reason} (not scored by the suite), not in the issue`;
  }
  if (!requirements)
    for (const name of AUTH_BACKCOMPAT) runs.push({ scenario: name, version: AUTH_BACKCOMPAT_VERSION });
  const chosen = scenario ? runs.filter((run) => run.scenario === scenario) : runs;
  if (scenario && chosen.length === 0)
    throw new Error(
      `${scenario} is in no requirement set run here${notRun[scenario] ? ` (not applicable: ${notRun[scenario]})` : ""}`,
    );
  return { runs: chosen, notRun: scenario ? {} : notRun, versions };
}

export const runKey = (run) => `${run.scenario}@${run.version}`;

/**
 * Runs `runOne(run)` for every run, `concurrency` at a time; a run not started within
 * budgetMs is not started at all and reported as such (the whole conformance run stays bounded).
 */
export async function runAuthScenarios(runs, runOne, { concurrency, budgetMs, log }) {
  const results = {};
  const deadline = Date.now() + budgetMs;
  const queue = [...runs];
  const worker = async () => {
    for (let run = queue.shift(); run; run = queue.shift()) {
      if (Date.now() > deadline) {
        results[runKey(run)] = {
          passed: 0,
          failed: 0,
          ok: false,
          firstFailure: `not run: over the auth scenarios' budget of ${budgetMs / 60_000} min`,
        };
        continue;
      }
      results[runKey(run)] = await runOne(run);
      log(`  ${run.scenario} at ${run.version}: ${cellOf(results[runKey(run)])}`);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  return results;
}

function cellOf(result) {
  if (!result) return "not run";
  const counts = `${result.passed} passed, ${result.failed} failed`;
  return result.ok ? `✓ ${counts}` : `✗ ${counts}`;
}

/** The "client authorization scenarios" table: one row per scenario, one column per version. */
export function authTable(plan, results) {
  const columns = [...plan.versions];
  if (plan.runs.some((run) => run.version === AUTH_BACKCOMPAT_VERSION)) columns.push(AUTH_BACKCOMPAT_VERSION);
  const scenarios = [...new Set(plan.runs.map((run) => run.scenario))];
  const planned = new Set(plan.runs.map(runKey));
  const rows = scenarios.map((scenario) => {
    const cells = columns.map((version) => {
      const key = `${scenario}@${version}`;
      return planned.has(key) ? cellOf(results[key]) : "—";
    });
    const failing = columns.find((version) => results[`${scenario}@${version}`]?.ok === false);
    const failure = failing ? `${failing}: ${results[`${scenario}@${failing}`].firstFailure ?? ""}` : "";
    return `| ${scenario} | ${cells.join(" | ")} | ${failure} |`;
  });
  const ran = plan.runs.map((run) => results[runKey(run)]).filter(Boolean);
  const header = columns.map((version) =>
    version === AUTH_BACKCOMPAT_VERSION ? `${version} (back-compat)` : version,
  );
  const lines = [
    "### Client authorization scenarios, through `toolscript run`",
    "",
    `${ran.filter((result) => result.ok).length}/${plan.runs.length} runs pass. Each scenario runs at every requirement set that lists it (\`--scenario S --spec-version R\`), the two 2025-03-26 back-compat ones at 2025-03-26; "—": not in that set. ` +
      "The server entry has `oauth.clientMetadataUrl` (`https://conformance-test.local/client-metadata.json`) and, when the scenario gives them (pre-registration), `oauth.clientId`/`clientSecret`; " +
      "`BROWSER` is a wrapper around `test/fixtures/browser-follow.mjs`, which follows the authorization redirects to ToolScript's loopback callback.",
    "",
    `| scenario | ${header.join(" | ")} | first failing check |`,
    `|---|${columns.map(() => "---|").join("")}---|`,
    ...rows,
    "",
  ];
  const notRun = Object.entries(plan.notRun);
  if (notRun.length > 0)
    lines.push(
      "Not run, not applicable to ToolScript's client (suite extensions; neither requirement set scores them):",
      "",
      ...notRun.map(([name, reason]) => `- \`${name}\`: ${reason}`),
      "",
    );
  return lines.join("\n");
}
