// The dashboard page: listens to /dashboard/events (the login cookie goes along)
// and draws counters, SVG charts and tables. Every piece of data is set as text
// (textContent, createTextNode), never parsed as HTML: tool names and errors
// come from upstream servers.

const SVG_NS = "http://www.w3.org/2000/svg";
/** Buckets drawn: 15 minutes of 10 s. */
const WINDOW_BUCKETS = 90;
const RECENT_ROWS = 20;
const ALERT_ROWS = 20;
const KEEP_RECENT = 100;
const KEEP_ALERTS = 50;

const view = {
  totals: null,
  servers: new Map(),
  recent: [],
  alerts: [],
  series: new Map(),
  upstreams: [],
  bucketMs: 10_000,
  /** Server clock minus this clock, from each message's `now`. */
  clockOffset: 0,
  version: 0,
};

const byId = (id) => document.getElementById(id);

function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (className) node.className = className;
  return node;
}

function svgEl(tag, attributes, text) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  if (text !== undefined) node.textContent = String(text);
  return node;
}

function count(n) {
  return Number(n ?? 0).toLocaleString("en-US");
}

function compact(n) {
  const value = Number(n ?? 0);
  if (value >= 1e9) return `${(value / 1e9).toFixed(1)}B`;
  if (value >= 1e6) return `${(value / 1e6).toFixed(1)}M`;
  if (value >= 1e4) return `${(value / 1e3).toFixed(1)}k`;
  return count(value);
}

function clock(time) {
  const date = new Date(time);
  return [date.getHours(), date.getMinutes(), date.getSeconds()]
    .map((part) => String(part).padStart(2, "0"))
    .join(":");
}

/** A class name from a fixed set, whatever the outcome text says. */
function outcomeClass(item) {
  if (item.kind === "anomaly") return "anomaly";
  if (item.outcome === "ok") return "ok";
  if (item.outcome.startsWith("policy.")) return "denied";
  return "error";
}

function stateClass(state) {
  return ["ready", "failed", "restarting"].includes(state) ? state : "other";
}

function badge(text, className) {
  return el("span", text, `badge ${className}`);
}

function what(item) {
  if (item.kind === "execution") {
    const calls = item.toolCalls === undefined ? "" : `, ${item.toolCalls} calls`;
    return `execution (${item.tool}${calls})`;
  }
  if (item.kind === "model_call") return `model ${item.server}/${item.tool}`;
  if (item.kind === "anomaly") return item.tool;
  return `${item.server}/${item.tool}`;
}

function row(cells, className) {
  const tr = el("tr", undefined, className);
  for (const cell of cells) {
    if (cell instanceof Node) {
      const td = el("td");
      td.append(cell);
      tr.append(td);
    } else {
      tr.append(el("td", cell.text, cell.className));
    }
  }
  return tr;
}

function fillTable(id, rows, columns, emptyText) {
  const body = byId(id).tBodies[0];
  if (rows.length === 0) {
    const td = el("td", emptyText, "empty");
    td.colSpan = columns;
    const tr = el("tr");
    tr.append(td);
    body.replaceChildren(tr);
  } else {
    body.replaceChildren(...rows);
  }
}

function renderCounters() {
  const totals = view.totals;
  if (!totals) return;
  const executions = totals.executions.ok + totals.executions.error;
  const calls = totals.toolCalls.ok + totals.toolCalls.error + totals.toolCalls.denied;
  byId("count-executions").textContent = count(executions);
  byId("detail-executions").textContent =
    `${count(totals.executions.ok)} ok · ${count(totals.executions.error)} failed`;
  byId("count-tool-calls").textContent = count(calls);
  byId("detail-tool-calls").textContent =
    `${count(totals.toolCalls.ok)} ok · ${count(totals.toolCalls.error)} errors`;
  byId("count-denials").textContent = count(totals.toolCalls.denied);
  byId("count-anomalies").textContent = count(totals.anomalies);
  byId("count-kept-out").textContent = compact(totals.tokens.keptOut);
  byId("detail-tokens").textContent =
    `${compact(totals.tokens.returned)} returned · ${compact(totals.tokens.saved)} saved`;
  const ready = view.upstreams.filter((upstream) => upstream.state === "ready").length;
  byId("count-upstreams").textContent = `${ready} / ${view.upstreams.length}`;
  const down = view.upstreams.filter(
    (upstream) => upstream.state !== "ready" && upstream.state !== "disabled",
  );
  byId("detail-upstreams").textContent =
    down.length === 0 ? "all up" : `not ready: ${down.map((upstream) => upstream.server).join(", ")}`;
}

function renderUpstreams() {
  const rows = view.upstreams.map((upstream) => {
    const tally = view.servers.get(upstream.server) ?? { calls: 0, errors: 0, denials: 0, totalMs: 0 };
    const average = tally.calls === 0 ? "" : (tally.totalMs / tally.calls).toFixed(1);
    return row([
      { text: upstream.server },
      badge(upstream.state, stateClass(upstream.state)),
      { text: upstream.transport ?? "" },
      { text: count(upstream.toolCount), className: "num" },
      { text: count(upstream.restarts), className: "num" },
      { text: count(tally.calls), className: "num" },
      { text: count(tally.errors), className: "num" },
      { text: count(tally.denials), className: "num" },
      { text: average, className: "num" },
      { text: upstream.error ?? "", className: "wrap" },
    ]);
  });
  fillTable("upstreams", rows, 10, "no upstream servers configured");
}

function renderRecent() {
  const items = view.recent.slice(-RECENT_ROWS).reverse();
  const rows = items.map((item) =>
    row(
      [
        { text: clock(item.time) },
        { text: what(item) },
        { text: item.client ?? "local" },
        { text: item.session ?? "" },
        badge(item.outcome, outcomeClass(item)),
        { text: Number(item.durationMs).toFixed(1), className: "num" },
        { text: item.bytesOut === null ? "" : count(item.bytesOut), className: "num" },
      ],
      item.history ? "history" : "",
    ),
  );
  fillTable("recent", rows, 7, "nothing has run yet");
}

function renderAlerts() {
  const items = view.alerts.slice(-ALERT_ROWS).reverse();
  const rows = items.map((item) =>
    row(
      [
        { text: clock(item.time) },
        { text: item.kind === "anomaly" ? "anomaly" : "denial" },
        { text: what(item) },
        { text: item.client ?? "local" },
        badge(item.outcome, outcomeClass(item)),
        { text: item.why ?? "", className: "wrap" },
      ],
      item.history ? "history" : "",
    ),
  );
  fillTable("alerts", rows, 6, "no denials or anomalies");
}

/** The drawn window: WINDOW_BUCKETS bucket starts ending with the current one. */
function windowStarts() {
  const now = Date.now() + view.clockOffset;
  const last = Math.floor(now / view.bucketMs) * view.bucketMs;
  const starts = [];
  for (let index = WINDOW_BUCKETS - 1; index >= 0; index -= 1) starts.push(last - index * view.bucketMs);
  return starts;
}

const CHART = { width: 440, height: 170, left: 40, right: 8, top: 10, bottom: 22 };

function chartFrame(svg, maxValue, starts) {
  const plotHeight = CHART.height - CHART.top - CHART.bottom;
  const baseline = CHART.top + plotHeight;
  svg.append(
    svgEl("line", {
      x1: CHART.left,
      x2: CHART.width - CHART.right,
      y1: baseline,
      y2: baseline,
      class: "axis",
    }),
  );
  svg.append(
    svgEl("line", {
      x1: CHART.left,
      x2: CHART.width - CHART.right,
      y1: CHART.top,
      y2: CHART.top,
      class: "axis",
    }),
  );
  svg.append(svgEl("text", { x: CHART.left - 6, y: CHART.top + 4, "text-anchor": "end" }, compact(maxValue)));
  svg.append(svgEl("text", { x: CHART.left - 6, y: baseline + 4, "text-anchor": "end" }, "0"));
  svg.append(svgEl("text", { x: CHART.left, y: CHART.height - 6 }, clock(starts[0])));
  svg.append(
    svgEl("text", { x: CHART.width - CHART.right, y: CHART.height - 6, "text-anchor": "end" }, "now"),
  );
  const step = (CHART.width - CHART.left - CHART.right) / starts.length;
  return {
    step,
    x: (index) => CHART.left + index * step,
    y: (value) => baseline - (maxValue === 0 ? 0 : (value / maxValue) * plotHeight),
    baseline,
  };
}

function renderTokensChart() {
  const svg = byId("chart-tokens");
  svg.replaceChildren();
  const starts = windowStarts();
  const perBucket = starts.map((start) => view.series.get(start)?.keptOut ?? 0);
  const inWindow = perBucket.reduce((sum, value) => sum + value, 0);
  let running = Math.max(0, (view.totals?.tokens.keptOut ?? 0) - inWindow);
  const points = perBucket.map((value) => {
    running += value;
    return running;
  });
  const frame = chartFrame(svg, Math.max(1, running), starts);
  const coordinates = points.map(
    (value, index) => `${frame.x(index + 1).toFixed(1)},${frame.y(value).toFixed(1)}`,
  );
  const first = `${frame.x(0).toFixed(1)},${frame.y(points[0] - perBucket[0]).toFixed(1)}`;
  const line = `M${first} L${coordinates.join(" L")}`;
  const area = `${line} L${frame.x(points.length).toFixed(1)},${frame.baseline} L${frame.x(0).toFixed(1)},${frame.baseline} Z`;
  svg.append(svgEl("path", { d: area, class: "tokens-area" }));
  svg.append(svgEl("path", { d: line, class: "tokens-line" }));
}

function renderCallsChart() {
  const svg = byId("chart-calls");
  svg.replaceChildren();
  const starts = windowStarts();
  const buckets = starts.map((start) => view.series.get(start));
  const maxValue = Math.max(
    1,
    ...buckets.map((bucket) => Math.max(bucket?.toolCalls ?? 0, bucket?.executions ?? 0)),
  );
  const frame = chartFrame(svg, maxValue, starts);
  const width = Math.max(1, frame.step - 1);
  buckets.forEach((bucket, index) => {
    if (!bucket) return;
    let top = frame.baseline;
    for (const [part, className] of [
      [bucket.denials, "denials"],
      [bucket.errors, "errors"],
      [bucket.toolCalls - bucket.denials - bucket.errors, "calls"],
    ]) {
      if (!(part > 0)) continue;
      const height = frame.baseline - frame.y(part);
      top -= height;
      svg.append(svgEl("rect", { x: frame.x(index), y: top, width, height, class: className }));
    }
  });
  const line = buckets
    .map((bucket, index) => `${frame.x(index) + width / 2},${frame.y(bucket?.executions ?? 0).toFixed(1)}`)
    .join(" L");
  svg.append(svgEl("path", { d: `M${line}`, class: "executions" }));
}

function renderOutcomesChart() {
  const svg = byId("chart-outcomes");
  svg.replaceChildren();
  const tallies = [...view.servers.values()].sort((a, b) => b.calls - a.calls).slice(0, 6);
  if (tallies.length === 0) {
    svg.append(svgEl("text", { x: CHART.width / 2, y: 85, "text-anchor": "middle" }, "no tool calls yet"));
    return;
  }
  const maxCalls = Math.max(1, ...tallies.map((tally) => tally.calls));
  const labelWidth = 90;
  const barSpace = CHART.width - labelWidth - 110;
  const rowHeight = Math.min(26, (CHART.height - 10) / tallies.length);
  tallies.forEach((tally, index) => {
    const y = 6 + index * rowHeight;
    const ok = tally.calls - tally.errors - tally.denials;
    svg.append(
      svgEl(
        "text",
        { x: labelWidth - 8, y: y + rowHeight / 2 + 4, "text-anchor": "end", class: "label" },
        tally.server.length > 13 ? `${tally.server.slice(0, 12)}…` : tally.server,
      ),
    );
    let x = labelWidth;
    for (const [part, className] of [
      [ok, "calls"],
      [tally.errors, "errors"],
      [tally.denials, "denials"],
    ]) {
      if (part <= 0) continue;
      const width = (part / maxCalls) * barSpace;
      svg.append(svgEl("rect", { x, y: y + 3, width, height: rowHeight - 8, class: className }));
      x += width;
    }
    const summary = `${count(tally.calls)}${tally.denials > 0 ? ` (${count(tally.denials)} denied)` : ""}`;
    svg.append(svgEl("text", { x: x + 6, y: y + rowHeight / 2 + 4 }, summary));
  });
}

let pending = false;
function render() {
  if (pending) return;
  pending = true;
  requestAnimationFrame(() => {
    pending = false;
    renderCounters();
    renderUpstreams();
    renderRecent();
    renderAlerts();
    renderTokensChart();
    renderCallsChart();
    renderOutcomesChart();
    document.body.dataset.version = String(view.version);
  });
}

/** Items newer than those held, oldest first, at most `keep`. */
function mergeItems(held, incoming, keep) {
  const newest = held.length === 0 ? 0 : held[held.length - 1].seq;
  const merged = held.concat(incoming.filter((item) => item.seq > newest));
  return merged.slice(-keep);
}

function apply(message, replace) {
  view.clockOffset = message.now - Date.now();
  view.bucketMs = message.bucketMs;
  view.version = message.version;
  view.totals = message.totals;
  view.servers = new Map(message.servers.map((tally) => [tally.server, tally]));
  if (replace) {
    view.recent = [];
    view.alerts = [];
    view.series = new Map();
  }
  view.recent = mergeItems(view.recent, message.recent, KEEP_RECENT);
  view.alerts = mergeItems(view.alerts, message.alerts, KEEP_ALERTS);
  for (const bucket of message.series) view.series.set(bucket.start, bucket);
  const oldest = Math.floor((message.now - WINDOW_BUCKETS * view.bucketMs) / view.bucketMs) * view.bucketMs;
  for (const start of view.series.keys()) if (start < oldest) view.series.delete(start);
  render();
}

function setConnection(state, text) {
  const node = byId("connection");
  node.className = `connection ${state}`;
  node.textContent = text;
}

const events = new EventSource("/dashboard/events");
events.addEventListener("open", () => setConnection("live", "live"));
events.addEventListener("error", () => {
  if (events.readyState === EventSource.CLOSED)
    setConnection("closed", "disconnected: reload the page (log in again if asked)");
  else setConnection("reconnecting", "reconnecting…");
});
events.addEventListener("snapshot", (event) => {
  const message = JSON.parse(event.data);
  view.upstreams = message.upstreams;
  apply(message, true);
});
events.addEventListener("activity", (event) => apply(JSON.parse(event.data), false));
events.addEventListener("upstreams", (event) => {
  view.upstreams = JSON.parse(event.data);
  render();
});
// The time axis moves on when nothing happens.
setInterval(render, 5000);
