import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { packageRoot, readCommitInfo, readLineTexts, writeReportTo } from "../../report";
import { summarizeUnits, writeTables } from "../../tables";
import { formatSummary } from "../summary";
import { type AnalysisFlags, runAnalysis, withAnalysisOptions } from "./run-analysis";
import { EXIT, type RegisterCommand } from "./types";

interface ReportFlags extends AnalysisFlags {
  out: string;
  png?: boolean;
  title?: string;
  timestamp?: boolean;
  top: string;
}

export const registerReportCommand: RegisterCommand = (program: Command, setExit) => {
  withAnalysisOptions(
    program
      .command("report")
      .description(
        "run analyze, then write a self-contained HTML report (index.html), per-session pages and figures/*.svg",
      )
      .option("-o, --out <dir>", "output folder", "swe-chat-eval-report")
      .option("--png", "also write figures/*.png (300 dpi at one paper column)")
      .option("--top <n>", "models, agents and repositories shown per chart before the rest are pooled", "10")
      .option("--title <text>", "the report's title")
      .option("--timestamp", "print the generation time in the report (otherwise reruns are byte-identical)")
      .option("--no-lines", "skip line owners: session pages without the blame view (smaller pages, a little faster)"),
  ).action(async (inputs: string[], flags: ReportFlags) => {
    setExit(await runReport(inputs, flags));
  });
};

function packageVersion(): string {
  try {
    return String(JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")).version ?? "");
  } catch {
    return "";
  }
}

async function runReport(inputs: string[], flags: ReportFlags): Promise<number> {
  const topN = Number(flags.top);
  if (!Number.isInteger(topN) || topN < 1) {
    process.stderr.write("error: --top must be a positive integer\n");
    return EXIT.usage;
  }
  // The session pages' blame view needs every committed line's owner: gathered unless --no-lines (README: the time
  // it adds is small; the pages grow with the committed lines shown, at most BLAME_LINE_LIMIT per unit).
  const run = await runAnalysis(inputs, { ...flags, lines: flags.lines !== false });
  if (typeof run === "number") return run;
  const { result, seed, secrets } = run;
  const repos = [...result.inputs.map((i) => i.path), ...(flags.repo ? [resolve(flags.repo)] : [])];
  const lineData = {
    texts: await readLineTexts(repos, result.rows.line_ranges ?? []),
    commits: await readCommitInfo(repos, [
      ...new Set([
        ...result.rows.units.map((u) => u.commit_sha),
        ...(result.rows.group_units ?? []).map((g) => g.commit_sha),
      ]),
    ]),
  };
  const out = resolve(flags.out);
  await writeTables(out, result.rows, { inputs: result.inputs }, secrets);
  const warnings: string[] = [];
  const paths = await writeReportTo(out, result.rows, {
    title: flags.title,
    seed,
    topN,
    png: Boolean(flags.png),
    timestamp: flags.timestamp ? new Date().toISOString() : undefined,
    inputs: result.inputs,
    version: packageVersion(),
    onWarning: (m) => warnings.push(m),
    secrets,
    lineData,
  });
  if (!flags.quiet) {
    for (const w of [...new Set(warnings)]) process.stderr.write(`chart warning: ${w}\n`);
    const groups = summarizeUnits(result.rows.group_units ?? [], result.rows.sessions, () => "all", { seed });
    process.stdout.write(
      formatSummary(
        result.rows,
        summarizeUnits(result.rows.units, result.rows.sessions, () => "all", { seed }),
        out,
        groups,
      ),
    );
    const figures = paths.filter((p) => p.startsWith("figures/")).length;
    const pages = paths.filter(
      (p) => p.startsWith("sessions/") && p.endsWith(".html") && p !== "sessions/index.html",
    ).length;
    process.stdout.write(`report: ${join(out, "index.html")} (${figures} figure files, ${pages} session pages)\n`);
  }
  return result.readAnything ? EXIT.ok : EXIT.nothingRead;
}
