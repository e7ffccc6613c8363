import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { TfasIntervals } from "./bootstrap";
import { type FlowSide, taskflowChartSpecs } from "./charts";
import type { DivergenceTerm } from "./jsd";
import type { TaskFlow } from "./model";
import { toSavedTaskFlow } from "./saved";
import type { TfasComparison } from "./tfas";

/** Everything a report section shows: both flows, the scores and their intervals. */
export interface TaskflowResult {
  target: FlowSide & { path: string | null };
  benchmark: FlowSide & { path: string | null };
  comparison: TfasComparison;
  ci: TfasIntervals;
}

/** The `--json` answer: exactly these keys, S in [0, 1], TFAS in [0, 100]. */
export interface TfasJson {
  S_L: number | null;
  S_T: number | null;
  S_R: number | null;
  TFAS: number | null;
  ci: TfasIntervals;
  n_target: number;
  n_benchmark: number;
}

export function toTfasJson(r: TaskflowResult): TfasJson {
  const c = r.comparison;
  return {
    S_L: c.S_L,
    S_T: c.S_T,
    S_R: c.S_R,
    TFAS: c.TFAS,
    ci: r.ci,
    n_target: r.target.flow.n_sessions,
    n_benchmark: r.benchmark.flow.n_sessions,
  };
}

export function escapeHtml(s: string): string {
  return s
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** JSON safe inside a <script> element. */
const scriptJson = (v: unknown) =>
  JSON.stringify(v)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");

const fmtS = (v: number | null) => (v === null ? "–" : v.toFixed(3));
const fmtT = (v: number | null) => (v === null ? "–" : v.toFixed(1));
const fmtCi = (ci: [number, number] | null, f: (v: number) => string) =>
  ci === null ? "" : ` [${f(ci[0])}, ${f(ci[1])}]`;
const pct = (v: number) => `${(100 * v).toFixed(1)}%`;

/** The terms that make up most of a divergence, largest first. */
export function topTerms<T extends DivergenceTerm>(terms: readonly T[], n: number): T[] {
  return terms.filter((t) => t.contribution > 0).slice(0, n);
}

function termsTable(title: string, terms: readonly DivergenceTerm[], total: number, r: TaskflowResult): string {
  const rows = terms
    .map(
      (t) =>
        `<tr><td>${escapeHtml(t.key)}</td><td class="num">${pct(t.p)}</td><td class="num">${pct(t.q)}</td><td class="num">${t.contribution.toFixed(4)}</td><td class="num">${total > 0 ? pct(t.contribution / total) : "–"}</td></tr>`,
    )
    .join("\n");
  return `<table class="taskflow-divergence"><caption>${escapeHtml(title)}</caption>
<thead><tr><th>key</th><th>${escapeHtml(r.target.name)}</th><th>${escapeHtml(r.benchmark.name)}</th><th>JSD part (bits)</th><th>of the JSD</th></tr></thead>
<tbody>
${rows}
</tbody></table>`;
}

function countsLine(f: TaskFlow): string {
  return `${f.n_sessions} sessions kept (≥ ${f.min_messages} messages) of ${f.n_sessions_in}${f.n_empty > 0 ? ` (${f.n_empty} without messages)` : ""}; ${f.n_messages} messages, ${f.n_retained_messages} retained`;
}

/** The report section as an HTML fragment (every text escaped); charts are placeholders with their specs inlined as JSON. */
export function taskflowSectionHtml(r: TaskflowResult, specs = taskflowChartSpecs(r.target, r.benchmark)): string {
  const c = r.comparison;
  const sum = (ts: readonly DivergenceTerm[]) => ts.reduce((a, t) => a + t.contribution, 0);
  const row = (k: string, v: number | null, ci: [number, number] | null, f: (x: number | null) => string) =>
    `<tr><th>${k}</th><td class="num">${f(v)}</td><td class="num">${escapeHtml(fmtCi(ci, (x) => f(x)))}</td></tr>`;
  const charts = specs
    .map(
      (s) => `<figure class="taskflow-chart" id="${escapeHtml(s.name)}">
<div class="vega-chart" data-spec="taskflow-charts/${escapeHtml(s.name)}.vl.json"></div>
<script type="application/json" class="vega-lite-spec" data-name="${escapeHtml(s.name)}">${scriptJson(s.spec)}</script>
<figcaption>${escapeHtml(s.title)}</figcaption>
</figure>`,
    )
    .join("\n");
  return `<section class="taskflow" id="taskflow">
<h2>Task Flow alignment</h2>
<p>Target <strong>${escapeHtml(r.target.name)}</strong>: ${escapeHtml(countsLine(r.target.flow))}.<br>
Benchmark <strong>${escapeHtml(r.benchmark.name)}</strong>: ${escapeHtml(countsLine(r.benchmark.flow))}.</p>
<table class="taskflow-scores">
<thead><tr><th></th><th>score</th><th>${escapeHtml(`${Math.round(r.ci.level * 100)}% interval`)}</th></tr></thead>
<tbody>
${row("S<sub>L</sub> (lengths)", c.S_L, r.ci.S_L, fmtS)}
${row("S<sub>T</sub> (task types)", c.S_T, r.ci.S_T, fmtS)}
${row("S<sub>R</sub> (transitions)", c.S_R, r.ci.S_R, fmtS)}
${row("TFAS", c.TFAS, r.ci.TFAS, fmtT)}
</tbody></table>
<p class="method">S = 1 − JSD₂ per distribution, TFAS = 100·(S<sub>L</sub>·S<sub>T</sub>·S<sub>R</sub>)<sup>1/3</sup> (SWE-TaskFlow); intervals: ${escapeHtml(r.ci.method)}, ${r.ci.replicates} replicates, seed ${r.ci.seed}${r.ci.resampled.target && r.ci.resampled.benchmark ? "" : escapeHtml(`; held fixed: ${[r.ci.resampled.target ? null : "target", r.ci.resampled.benchmark ? null : "benchmark"].filter(Boolean).join(", ")} (saved without sequences)`)}. Excluded labels: ${escapeHtml(r.target.flow.non_instantiable.join(", "))}.</p>
${termsTable("Where the lengths differ", topTerms(c.divergence.lengths, 7), sum(c.divergence.lengths), r)}
${termsTable("Where the task types differ", topTerms(c.divergence.task_types, 13), sum(c.divergence.task_types), r)}
${termsTable("Where the transitions differ (top 15)", topTerms(c.divergence.transitions, 15), sum(c.divergence.transitions), r)}
${charts}
</section>
`;
}

/**
 * Writes the section (`taskflow-section.html`), the scores (`taskflow.json`),
 * both flows (`taskflow-target.json`, `taskflow-benchmark.json`, loadable
 * as inputs) and the chart specs (`taskflow-charts/<name>.vl.json`) to DIR.
 */
export function writeTaskflowReport(dir: string, r: TaskflowResult): string[] {
  mkdirSync(join(dir, "taskflow-charts"), { recursive: true });
  const specs = taskflowChartSpecs(r.target, r.benchmark);
  const written: string[] = [];
  const write = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    written.push(name);
  };
  for (const s of specs) write(`taskflow-charts/${s.name}.vl.json`, JSON.stringify(s.spec, null, 2) + "\n");
  write("taskflow-section.html", taskflowSectionHtml(r, specs));
  write("taskflow.json", JSON.stringify({ ...toTfasJson(r), divergence: r.comparison.divergence }, null, 2) + "\n");
  write("taskflow-target.json", toSavedTaskFlow(r.target.flow));
  write("taskflow-benchmark.json", toSavedTaskFlow(r.benchmark.flow));
  return written;
}
