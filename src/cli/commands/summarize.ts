import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { DiagnosticSink } from "../../model";
import { headlineOf, readShardTables, writeParquetTables, writeTables } from "../../tables";
import { formatSummary } from "../summary";
import { EXIT, type RegisterCommand } from "./types";

interface SummarizeFlags {
  out: string;
  seed: string;
  format?: string;
  quiet?: boolean;
}

export const registerSummarizeCommand: RegisterCommand = (program: Command, setExit) => {
  program
    .command("summarize")
    .description(
      "put together the tables of several analyze runs (the shards of --shard K/N): the same tables and headline figures as one run",
    )
    .argument("<dir...>", "folders analyze wrote (--out)")
    .option("-o, --out <dir>", "output folder for the combined tables and summary.json", "swe-chat-eval-out")
    .option("--seed <n>", "bootstrap seed (as given to analyze)", "1")
    .option("--format <format>", "also write columnar files: parquet")
    .option("-q, --quiet", "no summary")
    .action(async (dirs: string[], flags: SummarizeFlags) => setExit(await runSummarize(dirs, flags)));
};

async function runSummarize(dirs: string[], flags: SummarizeFlags): Promise<number> {
  const seed = Number(flags.seed);
  if (!Number.isInteger(seed) || (flags.format !== undefined && flags.format !== "parquet")) {
    process.stderr.write("error: --seed must be an integer and --format parquet or absent\n");
    return EXIT.usage;
  }
  const folders = dirs.map((d) => resolve(d));
  const rows = await readShardTables(folders);
  rows.diagnostics.push(...shardCoverage(folders));
  const out = resolve(flags.out);
  await writeTables(out, rows, { summarized: folders, seed });
  if (flags.format === "parquet") await writeParquetTables(out, rows);
  const headline = headlineOf(rows, seed);
  writeFileSync(join(out, "summary.json"), `${JSON.stringify(headline, null, 2)}\n`);
  if (!flags.quiet) process.stdout.write(formatSummary(rows, headline.strict, out, headline.groups));
  return rows.units.length + rows.sessions.length > 0 ? EXIT.ok : EXIT.nothingRead;
}

/** Shards named in the folders' manifests: each of 1..N once, or a diagnostic that says which are missing or repeated. */
function shardCoverage(folders: readonly string[]): AnalysisDiagnostics {
  const sink = new DiagnosticSink("summarize", null);
  const seen = new Map<string, string[]>();
  let count: number | null = null;
  for (const dir of folders) {
    let shard: unknown;
    try {
      shard = (JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")) as { shard?: unknown }).shard;
    } catch {
      continue;
    }
    if (typeof shard !== "string") continue;
    const [k, n] = shard.split("/").map(Number);
    if (count !== null && n !== count)
      sink.warn("shard-count-mismatch", `${dir} is shard ${shard}, but another folder is a shard of ${count}`);
    count ??= n;
    seen.set(String(k), [...(seen.get(String(k)) ?? []), dir]);
  }
  if (count === null) return sink.rows;
  for (let k = 1; k <= count; k++) {
    const where = seen.get(String(k)) ?? [];
    if (where.length === 0)
      sink.warn("shard-missing", `shard ${k}/${count} is not among the folders: its sessions are not in the figures`);
    if (where.length > 1)
      sink.warn(
        "shard-repeated",
        `shard ${k}/${count} is given ${where.length} times (${where.join(", ")}): its rows are counted more than once`,
      );
  }
  return sink.rows;
}

type AnalysisDiagnostics = DiagnosticSink["rows"];
