import { resolve } from "node:path";
import type { Command } from "commander";
import { summarizeUnits, writeParquetTables, writeTables } from "../../tables";
import { formatSummary } from "../summary";
import { type AnalysisFlags, runAnalysis, withAnalysisOptions } from "./run-analysis";
import { EXIT, type RegisterCommand } from "./types";

interface AnalyzeFlags extends AnalysisFlags {
  out: string;
  format?: string;
}

export const registerAnalyzeCommand: RegisterCommand = (program: Command, setExit) => {
  withAnalysisOptions(
    program
      .command("analyze")
      .description("read sessions and commits; write units, sessions, tool_calls and diagnostics as CSV and JSON")
      .option("-o, --out <dir>", "output folder", "swe-chat-eval-out")
      .option("--format <format>", "also write columnar files: parquet"),
  ).action(async (inputs: string[], flags: AnalyzeFlags) => {
    setExit(await runAnalyze(inputs, flags));
  });
};

async function runAnalyze(inputs: string[], flags: AnalyzeFlags): Promise<number> {
  if (flags.format !== undefined && flags.format !== "parquet") {
    process.stderr.write(`error: --format ${flags.format} is not supported (parquet)\n`);
    return EXIT.usage;
  }
  const run = await runAnalysis(inputs, flags);
  if (typeof run === "number") return run;
  const { result, seed, secrets } = run;
  const out = resolve(flags.out);
  await writeTables(out, result.rows, { inputs: result.inputs }, secrets);
  if (flags.format === "parquet") await writeParquetTables(out, result.rows, secrets);
  if (!flags.quiet) {
    const summary = summarizeUnits(result.rows.units, result.rows.sessions, () => "all", { seed });
    const groups = summarizeUnits(result.rows.group_units ?? [], result.rows.sessions, () => "all", { seed });
    process.stdout.write(formatSummary(result.rows, summary, out, groups));
  }
  return result.readAnything ? EXIT.ok : EXIT.nothingRead;
}
