import { type AnalysisRows, type SliceSummary, unitCoverage } from "../tables";

const pct = (v: number | null) => (v === null ? "n/a" : `${v.toFixed(1)} %`);
const ci = (lo: number | null, hi: number | null) =>
  lo === null || hi === null ? "" : ` [${lo.toFixed(1)}, ${hi.toFixed(1)}]`;

/**
 * The few lines the CLI prints after a run: what was read, the headline figures (strict, comparable with
 * SWE-chat, and with groups, metrics.md §1b, side by side with the share of units each covers), what was excluded.
 */
export function formatSummary(
  rows: AnalysisRows,
  summary: SliceSummary[],
  out: string,
  groups: SliceSummary[] = [],
  toolCalls: number = rows.tool_calls.length,
): string {
  const lines: string[] = [];
  const units = rows.units;
  const excluded = new Map<string, number>();
  for (const u of units) if (u.ambiguity !== null) excluded.set(u.ambiguity, (excluded.get(u.ambiguity) ?? 0) + 1);
  lines.push(
    `sessions ${rows.sessions.length}, units ${units.length} (${units.length - [...excluded.values()].reduce((a, b) => a + b, 0)} unambiguous), tool calls ${toolCalls}, diagnostics ${rows.diagnostics.length}`,
  );
  const all = summary[0];
  const grouped = groups[0];
  const cover = unitCoverage(units, rows.group_units ?? []);
  const share = (n: number) => (cover.units === 0 ? "n/a" : `${((100 * n) / cover.units).toFixed(0)} %`);
  if (all || grouped) {
    lines.push(`  ${"".padEnd(20)} ${"strict".padEnd(24)} with groups`);
    for (const [label, key] of [
      ["code survival rate", "code_survival_rate"],
      ["coding efficiency", "coding_efficiency"],
      ["agent-authored", "agent_authored_pct"],
    ] as const) {
      const r = all?.ratios[key];
      const g = grouped?.ratios[key];
      const cell = (x: typeof r) => (x ? `${pct(x.pooled)}${ci(x.ci_low, x.ci_high)}` : "n/a");
      lines.push(`  ${label.padEnd(20)} ${cell(r).padEnd(24)} ${cell(g)}`);
    }
    lines.push(
      `  ${"units covered".padEnd(20)} ${`${cover.strict} of ${cover.units} (${share(cover.strict)})`.padEnd(24)} ${cover.groups} of ${cover.units} (${share(cover.groups)})`,
    );
    const groupCount = new Set(
      (rows.group_units ?? [])
        .filter((r) => r.ambiguity === null && r.total_committed_lines !== null)
        .map((r) => r.group_id),
    ).size;
    lines.push(
      `  (pooled; 95 % bootstrap intervals resampling ${all?.sessions ?? 0} sessions (strict) and ${groupCount} groups (with groups))`,
    );
    if (all?.cost_per_line != null)
      lines.push(
        `  ${"cost per line".padEnd(20)} $${all.cost_per_line.toFixed(4)} over ${all.committed_lines} committed lines (strict)`,
      );
  }
  for (const [reason, n] of [...excluded.entries()].sort()) lines.push(`  excluded: ${n} ${reason}`);
  const codes = new Map<string, number>();
  for (const d of rows.diagnostics) if (d.severity !== "info") codes.set(d.code, (codes.get(d.code) ?? 0) + 1);
  for (const [code, n] of [...codes.entries()].sort()) lines.push(`  diagnostic ${code}: ${n}`);
  lines.push(`tables written to ${out}`);
  return lines.join("\n") + "\n";
}
