import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { parseShard } from "../../analyze";
import { headlineOf, TableSpool, writeParquetTables, writeTables } from "../../tables";
import { formatSummary } from "../summary";
import { type AnalysisFlags, runAnalysis, withAnalysisOptions } from "./run-analysis";
import { EXIT, type RegisterCommand } from "./types";

interface AnalyzeFlags extends AnalysisFlags {
  out: string;
  format?: string;
  shard?: string;
}

export const registerAnalyzeCommand: RegisterCommand = (program: Command, setExit) => {
  withAnalysisOptions(
    program
      .command("analyze")
      .description("read sessions and commits; write units, sessions, tool_calls and diagnostics as CSV and JSON")
      .option("-o, --out <dir>", "output folder", "swe-chat-eval-out")
      .option("--format <format>", "also write columnar files: parquet")
      .option(
        "--shard <K/N>",
        "only shard K of N (by a hash of each session's group or id); put shards together with summarize",
      ),
  ).action(async (inputs: string[], flags: AnalyzeFlags) => {
    setExit(await runAnalyze(inputs, flags));
  });
};

async function runAnalyze(inputs: string[], flags: AnalyzeFlags): Promise<number> {
  if (flags.format !== undefined && flags.format !== "parquet") {
    process.stderr.write(`error: --format ${flags.format} is not supported (parquet)\n`);
    return EXIT.usage;
  }
  const shard = flags.shard === undefined ? undefined : parseShard(flags.shard);
  if (shard === null) {
    process.stderr.write(`error: --shard ${flags.shard}: expected K/N with 1 ≤ K ≤ N\n`);
    return EXIT.usage;
  }
  const out = resolve(flags.out);
  // The calls, prompts, per-file counts and line runs go to a file in the output folder as the work delivers
  // them, and the tables are written from it: memory does not grow with them.
  const spool = new TableSpool(out, flags.keepSecrets ? "kept" : "masked");
  try {
    const run = await runAnalysis(inputs, flags, shard, spool);
    if (typeof run === "number") return run;
    const { result, seed, secrets } = run;
    const written = await writeTables(
      out,
      result.rows,
      { inputs: result.inputs, seed, ...(shard ? { shard: `${shard.index}/${shard.count}` } : {}) },
      secrets,
      spool,
    );
    if (flags.format === "parquet") await writeParquetTables(out, result.rows, secrets, spool);
    const headline = headlineOf(result.rows, seed);
    writeFileSync(join(out, "summary.json"), `${JSON.stringify(headline, null, 2)}\n`);
    if (!flags.quiet)
      process.stdout.write(formatSummary(result.rows, headline.strict, out, headline.groups, written.rows.tool_calls));
    return result.readAnything ? EXIT.ok : EXIT.nothingRead;
  } finally {
    spool.close();
  }
}
