import type { AnalysisRows, SliceSummary } from "../tables";

const pct = (v: number | null) => (v === null ? "n/a" : `${v.toFixed(1)} %`);
const ci = (lo: number | null, hi: number | null) => (lo === null || hi === null ? "" : ` [${lo.toFixed(1)}, ${hi.toFixed(1)}]`);

/** The few lines the CLI prints after a run: what was read, the headline figures, what was excluded. */
export function formatSummary(rows: AnalysisRows, summary: SliceSummary[], out: string): string {
  const lines: string[] = [];
  const units = rows.units;
  const excluded = new Map<string, number>();
  for (const u of units) if (u.ambiguity !== null) excluded.set(u.ambiguity, (excluded.get(u.ambiguity) ?? 0) + 1);
  lines.push(`sessions ${rows.sessions.length}, units ${units.length} (${units.length - [...excluded.values()].reduce((a, b) => a + b, 0)} unambiguous), tool calls ${rows.tool_calls.length}, diagnostics ${rows.diagnostics.length}`);
  const all = summary[0];
  if (all) {
    for (const [label, key] of [
      ["code survival rate", "code_survival_rate"],
      ["coding efficiency", "coding_efficiency"],
      ["agent-authored", "agent_authored_pct"],
    ] as const) {
      const r = all.ratios[key];
      lines.push(`  ${label.padEnd(20)} ${pct(r.pooled)}${ci(r.ci_low, r.ci_high)}  (pooled over ${all.units} units, 95 % bootstrap over ${all.sessions} sessions)`);
    }
    if (all.cost_per_line !== null) lines.push(`  ${"cost per line".padEnd(20)} $${all.cost_per_line.toFixed(4)} over ${all.committed_lines} committed lines`);
  }
  for (const [reason, n] of [...excluded.entries()].sort()) lines.push(`  excluded: ${n} ${reason}`);
  const codes = new Map<string, number>();
  for (const d of rows.diagnostics) if (d.severity !== "info") codes.set(d.code, (codes.get(d.code) ?? 0) + 1);
  for (const [code, n] of [...codes.entries()].sort()) lines.push(`  diagnostic ${code}: ${n}`);
  lines.push(`tables written to ${out}`);
  return lines.join("\n") + "\n";
}
