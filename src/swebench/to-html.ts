/**
 * The report section of `swe-chat-eval swebench`: escaped HTML, no network.
 * Every text from the data (system names come from other people's
 * metadata.yaml) is escaped; chart specs are inlined as JSON with `<` written
 * `\u003c` so no spec can close its script element. Figures rendered to SVG
 * are embedded as `data:` images, so a figure can run no script.
 */
import type { Diagnostic } from "../model";
import type { BreakdownRow, Comparison, PairTable } from "./compare";
import type { InstanceRow, RunRow, SystemRow } from "./rows";
import { SWEBENCH_FORMAT_VERSION } from "./rows";
import type { Subset } from "./subsets";

export interface SectionChart {
  name: string;
  title: string;
  spec: Record<string, unknown>;
  /** Rendered SVG, when the caller could render it. */
  svg?: string | null;
}

export interface SectionData {
  subset: Subset;
  runs: readonly RunRow[];
  systems: readonly SystemRow[];
  instances: readonly InstanceRow[];
  comparison?: Comparison | null;
  charts: readonly SectionChart[];
  diagnostics: readonly Diagnostic[];
}

export function escapeHtml(value: unknown): string {
  return String(value ?? "").replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );
}

/** JSON safe inside `<script>`: `<` (so `</script` and `<!--`), U+2028 and U+2029 escaped. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

const pct = (v: number | null | undefined) => (v === null || v === undefined ? "–" : `${v.toFixed(1)} %`);
const usd = (v: number | null | undefined) => (v === null || v === undefined ? "–" : `$${v.toFixed(3)}`);
const num = (v: number | null | undefined) => (v === null || v === undefined ? "–" : String(v));
const pValue = (p: number) => (p < 0.001 ? p.toExponential(2) : p.toFixed(4));

function table(headers: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const head = headers.map((h) => `<th>${escapeHtml(h)}</th>`).join("");
  const body = rows.map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c)}</td>`).join("")}</tr>`).join("\n");
  return `<table>\n<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>`;
}

function runsTable(runs: readonly RunRow[]): string {
  return table(
    [
      "run",
      "system",
      "graded by",
      "total",
      "resolved",
      "resolve rate",
      "unresolved",
      "regression",
      "not applied",
      "empty patch",
      "error",
      "missing",
      "outside subset",
      "disagreements",
      "mean cost / issue",
      "instances with cost",
    ],
    runs.map((r) => [
      r.run,
      r.system,
      r.harness,
      r.total,
      r.resolved,
      pct(r.resolve_rate),
      r.unresolved,
      r.regression,
      r.not_applied,
      r.empty_patch,
      r.error,
      r.missing,
      r.outside_subset,
      r.disagreements,
      usd(r.mean_cost_usd),
      r.cost_instances,
    ]),
  );
}

function systemsTable(systems: readonly SystemRow[]): string {
  return table(
    ["system", "runs", "mean resolve rate", "min", "max", "mean cost / issue", "runs with cost"],
    systems.map((s) => [
      s.system,
      s.runs,
      pct(s.mean_resolve_rate),
      pct(s.min_resolve_rate),
      pct(s.max_resolve_rate),
      usd(s.mean_cost_usd),
      s.cost_runs,
    ]),
  );
}

function missingNote(runs: readonly RunRow[]): string {
  const lacking = runs.filter((r) => r.missing > 0);
  if (lacking.length === 0) return "<p>No run misses an instance of the subset.</p>";
  const parts = lacking.map(
    (r) =>
      `${escapeHtml(r.run)}: ${r.missing}${r.unlisted > 0 ? ` (${r.unlisted} not listed: the subset's ids are unknown)` : ""}`,
  );
  return `<p>Instances missing from a run count as unresolved (class <code>missing</code>), in the denominator: ${parts.join("; ")}.</p>`;
}

function disagreements(instances: readonly InstanceRow[]): string {
  const rows = instances.filter((r) => r.disagrees === true);
  if (rows.length === 0) return "<p>Every report's own <code>resolved</code> agrees with the rule.</p>";
  return `<p>Reports whose own <code>resolved</code> differs from the rule (the rule is used):</p>\n${table(
    ["run", "instance", "report says resolved", "rule's class", "F2P passed/failed", "P2P passed/failed"],
    rows.map((r) => [
      r.run,
      r.instance_id,
      String(r.reported_resolved),
      r.class,
      `${num(r.f2p_passed)}/${num(r.f2p_failed)}`,
      `${num(r.p2p_passed)}/${num(r.p2p_failed)}`,
    ]),
  )}`;
}

function pairRow(label: string, t: PairTable): unknown[] {
  return [
    label,
    t.n,
    t.both,
    t.a_only,
    t.b_only,
    t.neither,
    pct(t.a_rate),
    pct(t.b_rate),
    t.difference === null ? "–" : `${t.difference.toFixed(1)} pp`,
    pValue(t.mcnemar_p),
  ];
}

function comparisonBlock(c: Comparison): string {
  const a = escapeHtml(c.a);
  const b = escapeHtml(c.b);
  const ci = c.interval ? `[${c.interval[0].toFixed(1)}, ${c.interval[1].toFixed(1)}] pp` : "–";
  const twoByTwo = table(
    ["", `${c.b} resolved`, `${c.b} not resolved`],
    [
      [`${c.a} resolved`, c.both, c.a_only],
      [`${c.a} not resolved`, c.b_only, c.neither],
    ],
  );
  const breakdownTable = (rows: readonly BreakdownRow[]) =>
    table(
      [
        "group",
        "n",
        "both",
        `${c.a} only`,
        `${c.b} only`,
        "neither",
        `${c.a} rate`,
        `${c.b} rate`,
        "difference",
        "McNemar p",
      ],
      rows.map((r) => pairRow(r.group, r)),
    );
  return [
    `<h3>${a} vs ${b}</h3>`,
    `<p>On the ${c.n} instances of ${escapeHtml(c.subset)} both attempted (${c.a_only_attempted} attempted by ${a} only and ${c.b_only_attempted} by ${b} only are left out): ${a} ${pct(c.a_rate)}, ${b} ${pct(c.b_rate)}, difference ${c.difference === null ? "–" : c.difference.toFixed(1)} pp, ${Math.round(c.level * 100)} % paired bootstrap interval ${ci} (${c.iterations} resamples of instances, seed ${c.seed}); exact McNemar p = ${pValue(c.mcnemar_p)} (two-sided binomial on the ${c.a_only + c.b_only} discordant instances).</p>`,
    twoByTwo,
    c.by_repo.length > 0 ? `<h4>By repository</h4>\n${breakdownTable(c.by_repo)}` : "",
    c.by_difficulty.length > 0
      ? `<h4>By difficulty</h4>\n${breakdownTable(c.by_difficulty)}`
      : "<p>No difficulty labels in the data (SWE-bench Verified's dataset has them: pass it with --instances).</p>",
  ].join("\n");
}

function chartBlock(c: SectionChart): string {
  const img = c.svg
    ? `<img alt="${escapeHtml(c.title)}" src="data:image/svg+xml;base64,${Buffer.from(c.svg, "utf8").toString("base64")}">`
    : "";
  return `<figure class="swebench-chart" data-chart="${escapeHtml(c.name)}">\n${img}\n<figcaption>${escapeHtml(c.title)}</figcaption>\n<script type="application/json" class="vega-lite-spec" data-chart="${escapeHtml(c.name)}">${scriptJson(c.spec)}</script>\n</figure>`;
}

function diagnosticsBlock(diagnostics: readonly Diagnostic[]): string {
  if (diagnostics.length === 0) return "<p>No diagnostics.</p>";
  const byCode = new Map<string, { severity: string; n: number; example: string }>();
  for (const d of diagnostics) {
    const e = byCode.get(d.code);
    if (e) e.n++;
    else byCode.set(d.code, { severity: d.severity, n: 1, example: d.message });
  }
  const rows = Array.from(byCode.entries())
    .sort((x, y) => (x[0] < y[0] ? -1 : 1))
    .map(([code, e]) => [e.severity, code, e.n, e.example]);
  return table(["severity", "code", "count", "example"], rows);
}

/** The section alone, for a report that assembles several. */
export function renderSwebenchSection(data: SectionData): string {
  const s = data.subset;
  const total = data.runs.length > 0 ? Math.max(...data.runs.map((r) => r.total)) : s.size;
  return [
    `<section class="swebench" data-swebench-format-version="${SWEBENCH_FORMAT_VERSION}">`,
    `<h2>SWE-bench runs</h2>`,
    `<p>Subset: <strong>${escapeHtml(s.label)}</strong> (<code>${escapeHtml(s.name)}</code>), denominator ${total}; chosen by ${escapeHtml(s.source)}. An instance is resolved only if its patch applied and every FAIL_TO_PASS and every PASS_TO_PASS test passed (no partial credit); the class is recomputed from each report's <code>tests_status</code>. Each run names the evidence that graded it.</p>`,
    missingNote(data.runs),
    `<h3>Runs</h3>`,
    runsTable(data.runs),
    `<h3>Systems</h3>`,
    `<p>Several runs of one system: the mean resolve rate with min–max over runs, and the mean of the runs' mean cost per issue (over instances with a recorded cost).</p>`,
    systemsTable(data.systems),
    `<h3>The rule against the reports</h3>`,
    disagreements(data.instances),
    data.comparison ? comparisonBlock(data.comparison) : "",
    ...data.charts.map(chartBlock),
    `<h3>Diagnostics</h3>`,
    diagnosticsBlock(data.diagnostics),
    `</section>`,
  ]
    .filter((x) => x !== "")
    .join("\n");
}

/** A whole page around the section: opens offline, loads nothing. */
export function renderSwebenchPage(data: SectionData): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>SWE-bench runs: ${escapeHtml(data.subset.label)}</title>
<style>
body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem; max-width: 72rem; }
table { border-collapse: collapse; margin: .5rem 0 1rem; }
th, td { border: 1px solid #ccc; padding: .2rem .5rem; text-align: right; }
th:first-child, td:first-child { text-align: left; }
figure { margin: 1rem 0; }
</style>
</head>
<body>
${renderSwebenchSection(data)}
</body>
</html>
`;
}
