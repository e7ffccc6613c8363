/**
 * Everything `swe-chat-eval swebench --out DIR` writes: the tables, the
 * chart specs (`charts/<name>.vl.json`), their SVGs (`figures/<name>.svg`),
 * `comparison.json` when two runs were compared, and the report section
 * `swebench.html`. Not exported from index.ts: it renders with vega, which
 * notebooks cannot `require()` (stack.md).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { classCountsSpec, compareByRepoSpec, resolveRateSpec, resolveVsCostSpec } from "./charts";
import type { Comparison } from "./compare";
import type { SwebenchResult } from "./evaluate";
import { renderSvg } from "./render-svg";
import { SWEBENCH_FORMAT_VERSION } from "./rows";
import { renderSwebenchPage, type SectionChart } from "./to-html";
import { writeSwebenchTables } from "./to-files";

/** The section's charts, built from the result (pure). */
export function sectionCharts(result: SwebenchResult, comparison: Comparison | null): SectionChart[] {
  const total = result.runs.length > 0 ? Math.max(...result.runs.map((r) => r.total)) : result.subset.size;
  const subset = { label: result.subset.label, total };
  const charts: SectionChart[] = [
    {
      name: "resolve-vs-cost",
      title: `Resolve rate vs mean cost per issue (${subset.label})`,
      spec: resolveVsCostSpec(result.systems, subset),
    },
    {
      name: "resolve-rate",
      title: `Resolve rate by system (${subset.label})`,
      spec: resolveRateSpec(result.systems, result.runs, subset),
    },
    { name: "classes", title: `Instances by class (${subset.label})`, spec: classCountsSpec(result.runs, subset) },
  ];
  if (comparison && comparison.by_repo.length > 0) {
    charts.push({
      name: "compare-by-repo",
      title: `${comparison.a} vs ${comparison.b} by repository`,
      spec: compareByRepoSpec(comparison),
    });
  }
  return charts;
}

export interface WriteOptions {
  /** Render SVG figures (default true). */
  figures?: boolean;
  meta?: Record<string, unknown>;
}

/** Writes the outputs into `dir`; returns the files written and any chart that could not be rendered. */
export async function writeSwebenchOutputs(
  dir: string,
  result: SwebenchResult,
  comparison: Comparison | null,
  options: WriteOptions = {},
): Promise<{ written: string[]; renderErrors: string[] }> {
  const written = writeSwebenchTables(dir, result, result.subset, options.meta);
  const charts = sectionCharts(result, comparison);
  const renderErrors: string[] = [];
  mkdirSync(join(dir, "charts"), { recursive: true });
  if (options.figures !== false) mkdirSync(join(dir, "figures"), { recursive: true });
  for (const c of charts) {
    writeFileSync(join(dir, "charts", `${c.name}.vl.json`), JSON.stringify(c.spec, null, 2) + "\n");
    written.push(`charts/${c.name}.vl.json`);
    if (options.figures === false) continue;
    const r = await renderSvg(c.spec as never);
    if (r.svg) {
      c.svg = r.svg;
      writeFileSync(join(dir, "figures", `${c.name}.svg`), r.svg);
      written.push(`figures/${c.name}.svg`);
    } else renderErrors.push(`${c.name}: ${r.error}`);
  }
  if (comparison) {
    writeFileSync(
      join(dir, "comparison.json"),
      JSON.stringify({ swebench_format_version: SWEBENCH_FORMAT_VERSION, ...comparison }, null, 2) + "\n",
    );
    written.push("comparison.json");
  }
  const page = renderSwebenchPage({
    subset: result.subset,
    runs: result.runs,
    systems: result.systems,
    instances: result.instances,
    comparison,
    charts,
    diagnostics: result.diagnostics,
  });
  writeFileSync(join(dir, "swebench.html"), page);
  written.push("swebench.html");
  return { written, renderErrors };
}
