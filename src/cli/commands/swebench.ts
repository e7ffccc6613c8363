import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import {
  compareRuns,
  type Comparison,
  evaluateRuns,
  INSTANCE_CLASSES,
  knownSubset,
  type InstanceRow,
  type RunInput,
  type RunRow,
  type SwebenchResult,
} from "../../swebench";
import { writeSwebenchOutputs } from "../../swebench/write-outputs";
import { defaultSwebenchSampleDir, writeSampleSwebenchRuns } from "../../sample";
import { EXIT, type RegisterCommand } from "./types";

interface SwebenchFlags {
  out: string;
  subset?: string;
  instances?: string;
  compare?: string | boolean;
  seed: string;
  iterations: string;
  json?: boolean;
  figures: boolean;
  quiet?: boolean;
}

export const registerSwebenchCommand: RegisterCommand = (program: Command, setExit) => {
  program
    .command("swebench")
    .description(
      "grade SWE-bench runs by the strict rule against one subset; write instances, runs, systems and diagnostics as CSV and JSON, chart specs, and swebench.html",
    )
    .argument(
      "[run...]",
      "(default: bundled synthetic sample runs) a run: a folder (harness logs/run_evaluation/…, an experiments evaluation/<split>/<date_model>/, SWE-agent trajectories) or a file (predictions, report.json, run summary, results.json); SYSTEM=PATH names the run's system",
    )
    .option("-o, --out <dir>", "output folder", "swe-chat-eval-swebench")
    .option(
      "--subset <name>",
      "the denominator: full, lite, verified, multilingual, multimodal, multimodal-dev (or the name of the --instances list)",
    )
    .option(
      "--instances <file>",
      "a dataset instance list (JSON/JSONL with instance_id, FAIL_TO_PASS, PASS_TO_PASS) or an id list that fixes the subset",
    )
    .option("--compare [a,b]", "compare two runs on the instances both attempted (default: the only two runs)")
    .option("--seed <n>", "bootstrap seed", "1")
    .option("--iterations <n>", "bootstrap resamples", "2000")
    .option("--json", "print one JSON object per run (JSON Lines) instead of the summary")
    .option("--no-figures", "do not render the charts to SVG")
    .option("-q, --quiet", "print nothing but errors")
    .action(async (runs: string[], flags: SwebenchFlags) => {
      setExit(await runSwebench(runs, flags));
    });
};

/** `SYSTEM=PATH` names the system; a path that exists is taken whole, `=` and all. */
export function parseRunArgument(arg: string): RunInput {
  const eq = arg.indexOf("=");
  if (eq > 0 && !existsSync(arg)) return { path: arg.slice(eq + 1), system: arg.slice(0, eq) };
  return { path: arg };
}

function usage(message: string): number {
  process.stderr.write(`error: ${message}\n`);
  return EXIT.usage;
}

async function runSwebench(args: string[], flags: SwebenchFlags): Promise<number> {
  const seed = Number(flags.seed);
  const iterations = Number(flags.iterations);
  if (!Number.isInteger(seed) || !Number.isInteger(iterations) || iterations < 1)
    return usage("--seed must be an integer and --iterations a positive integer");
  if (flags.subset && !flags.instances && !knownSubset(flags.subset)) {
    return usage(
      `unknown subset ${flags.subset}: use full, lite, verified, multilingual, multimodal, multimodal-dev, or --instances FILE`,
    );
  }
  if (args.length === 0) {
    const sample = writeSampleSwebenchRuns(defaultSwebenchSampleDir());
    args = [sample.runs];
    flags = { ...flags, instances: flags.instances ?? sample.instances, subset: flags.subset ?? "sample-30" };
    if (!flags.quiet && !flags.json)
      process.stderr.write(`no run given: using bundled synthetic sample runs at ${sample.runs}\n`);
  }
  const outcome = evaluateRuns({
    inputs: args.map(parseRunArgument),
    subset: flags.subset ?? null,
    instances: flags.instances ?? null,
  });
  if ("error" in outcome) {
    process.stderr.write(`error: ${outcome.error}\n`);
    for (const d of outcome.diagnostics) process.stderr.write(`  ${d.code}: ${d.message}\n`);
    return EXIT.nothingRead;
  }
  if (!outcome.readAnything) {
    process.stderr.write("error: no SWE-bench file could be read from the inputs\n");
    for (const d of outcome.diagnostics.filter((x) => x.severity === "error").slice(0, 10))
      process.stderr.write(`  ${d.code}: ${d.message}\n`);
    return EXIT.nothingRead;
  }
  let comparison: Comparison | null = null;
  if (flags.compare !== undefined) {
    const pair = pickPair(outcome, flags.compare);
    if (typeof pair === "string") return usage(pair);
    comparison = compareRuns(pair[0], pair[1], { seed, iterations });
  }
  const out = resolve(flags.out);
  const { renderErrors } = await writeSwebenchOutputs(out, outcome, comparison, {
    figures: flags.figures,
    meta: { inputs: args, seed, iterations },
  });
  for (const e of renderErrors) process.stderr.write(`warning: chart not rendered: ${e}\n`);
  if (flags.json) {
    for (const r of outcome.runs) process.stdout.write(JSON.stringify(jsonLine(r)) + "\n");
  } else if (!flags.quiet) {
    process.stdout.write(formatSwebenchSummary(outcome, comparison, out));
  }
  return EXIT.ok;
}

/** The `--json` object of one run: names the subset and its denominator, with every class's count. */
export function jsonLine(r: RunRow): Record<string, unknown> {
  const line: Record<string, unknown> = {
    run: r.run,
    system: r.system,
    subset: r.subset,
    total: r.total,
    resolved: r.resolved,
    resolve_rate: r.resolve_rate,
  };
  for (const c of INSTANCE_CLASSES) line[c] = r[c];
  line.disagreements = r.disagreements;
  line.outside_subset = r.outside_subset;
  line.harness = r.harness;
  line.mean_cost_usd = r.mean_cost_usd;
  return line;
}

/** The two runs `--compare` names (`a,b`, runs or single-run systems), or the only two runs. */
function pickPair(result: SwebenchResult, value: string | boolean): [InstanceRow[], InstanceRow[]] | string {
  const rowsOf = (run: string) => result.instances.filter((r) => r.run === run);
  const find = (name: string): string | null => {
    if (result.runs.some((r) => r.run === name)) return name;
    const bySystem = result.runs.filter((r) => r.system === name);
    return bySystem.length === 1 ? bySystem[0].run : null;
  };
  let names: string[];
  if (value === true) {
    if (result.runs.length !== 2)
      return `--compare without names needs exactly two runs; there are ${result.runs.length} (${result.runs.map((r) => r.run).join(", ")}): name them, --compare A,B`;
    names = result.runs.map((r) => r.run);
  } else {
    const parts = String(value)
      .split(",")
      .map((s) => s.trim());
    if (parts.length !== 2) return "--compare takes two run names separated by a comma";
    const found = parts.map(find);
    const bad = parts.filter((_, i) => found[i] === null);
    if (bad.length > 0)
      return `--compare: no run (or single-run system) named ${bad.join(", ")}; runs: ${result.runs.map((r) => r.run).join(", ")}`;
    names = found as string[];
  }
  return [rowsOf(names[0]), rowsOf(names[1])];
}

const pct = (v: number | null) => (v === null ? "n/a" : `${v.toFixed(1)} %`);

export function formatSwebenchSummary(result: SwebenchResult, comparison: Comparison | null, out: string): string {
  const lines: string[] = [];
  const s = result.subset;
  lines.push(`subset ${s.label} (${s.name}), chosen by ${s.source}`);
  for (const r of result.runs) {
    const classes = INSTANCE_CLASSES.filter((c) => c !== "resolved")
      .map((c) => `${c} ${r[c]}`)
      .join(", ");
    const cost = r.mean_cost_usd === null ? "" : `, mean cost $${r.mean_cost_usd.toFixed(3)} over ${r.cost_instances}`;
    lines.push(
      `  ${r.run} [${r.system}]: resolved ${r.resolved}/${r.total} = ${pct(r.resolve_rate)} (${classes}${cost}; graded by ${r.harness})`,
    );
    if (r.missing > 0) lines.push(`    ${r.missing} instance(s) missing from the run count as unresolved`);
    if (r.disagreements > 0) lines.push(`    ${r.disagreements} report(s) whose own resolved differs from the rule`);
  }
  if (comparison) {
    const c = comparison;
    const ci = c.interval ? ` [${c.interval[0].toFixed(1)}, ${c.interval[1].toFixed(1)}]` : "";
    lines.push(
      `  ${c.a} vs ${c.b} on ${c.n} instances both attempted: ${pct(c.a_rate)} vs ${pct(c.b_rate)}, difference ${c.difference === null ? "n/a" : c.difference.toFixed(1)} pp${ci}; ${c.a} only ${c.a_only}, ${c.b} only ${c.b_only}, exact McNemar p = ${c.mcnemar_p.toPrecision(3)}`,
    );
  }
  const codes = new Map<string, number>();
  for (const d of result.diagnostics) if (d.severity !== "info") codes.set(d.code, (codes.get(d.code) ?? 0) + 1);
  for (const [code, n] of Array.from(codes.entries()).sort()) lines.push(`  diagnostic ${code}: ${n}`);
  lines.push(`tables, charts and swebench.html written to ${out}`);
  return lines.join("\n") + "\n";
}
