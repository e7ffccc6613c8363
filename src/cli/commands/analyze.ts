import { resolve } from "node:path";
import type { Command } from "commander";
import { analyze } from "../../analyze";
import { ensureSampleCorpus } from "../../sample";
import { summarizeUnits, writeParquetTables, writeTables } from "../../tables";
import { makeProgress } from "../progress";
import { formatSummary } from "../summary";
import { EXIT, type RegisterCommand } from "./types";

interface AnalyzeFlags {
  out: string;
  repo?: string;
  quiet?: boolean;
  idleLimit: string;
  seed: string;
  format?: string;
  threads?: string;
  patch?: string;
  keepExcludedRepos?: boolean;
}

export const registerAnalyzeCommand: RegisterCommand = (program: Command, setExit) => {
  program
    .command("analyze")
    .description("read sessions and commits; write units, sessions, tool_calls and diagnostics as CSV and JSON")
    .argument("[input...]", "git repositories with Entire checkpoints, Claude Code transcripts or projects folders (default: the bundled sample corpus)")
    .option("-o, --out <dir>", "output folder", "swe-chat-eval-out")
    .option("--repo <path>", "the git repository that the transcripts edited (when it is not the input itself)")
    .option("--idle-limit <seconds>", "idle gap cap for active time", "300")
    .option("--seed <n>", "bootstrap seed", "1")
    .option("--format <format>", "also write columnar files: parquet")
    .option("--patch <file>", "a commit as a unified diff (git show / git diff) to attribute DataClaw and SpecStory sessions against (method patch-match)")
    .option("--keep-excluded-repos", "SWE-chat dataset: keep dayhaysoos/nimbus (excluded by default: machine-generated prompts)")
    .option("--threads <n>", "worker threads for per-session work (default: automatic)")
    .option("-q, --quiet", "no progress bar and no summary")
    .action(async (inputs: string[], flags: AnalyzeFlags) => {
      setExit(await runAnalyze(inputs, flags));
    });
};

async function runAnalyze(inputs: string[], flags: AnalyzeFlags): Promise<number> {
  const idleLimitS = Number(flags.idleLimit);
  const seed = Number(flags.seed);
  if (!Number.isFinite(idleLimitS) || idleLimitS <= 0 || !Number.isInteger(seed)) {
    process.stderr.write("error: --idle-limit must be a positive number and --seed an integer\n");
    return EXIT.usage;
  }
  const threads = flags.threads === undefined ? undefined : Number(flags.threads);
  if (threads !== undefined && (!Number.isInteger(threads) || threads < 1)) {
    process.stderr.write("error: --threads must be a positive integer\n");
    return EXIT.usage;
  }
  if (flags.format !== undefined && flags.format !== "parquet") {
    process.stderr.write(`error: --format ${flags.format} is not supported (parquet)\n`);
    return EXIT.usage;
  }
  const repo = flags.repo ? resolve(flags.repo) : undefined;
  if (inputs.length === 0) {
    const sample = await ensureSampleCorpus();
    inputs = [sample.repoDir];
    if (!flags.quiet) process.stderr.write(`no input given: using the bundled sample corpus at ${sample.repoDir}\n`);
  }
  const progress = makeProgress(Boolean(flags.quiet));
  const result = await analyze({
    inputs: inputs.map((p) => resolve(p)),
    repo,
    idleLimitS,
    threads,
    commitPatch: flags.patch ? resolve(flags.patch) : undefined,
    includeExcludedRepos: Boolean(flags.keepExcludedRepos),
    onProgress: (done, total, label) => {
      if (done === 0) progress.start(total, label);
      else progress.update(done, label);
    },
  });
  progress.stop();
  const out = resolve(flags.out);
  await writeTables(out, result.rows, { inputs: result.inputs });
  if (flags.format === "parquet") await writeParquetTables(out, result.rows);
  if (!flags.quiet) {
    const summary = summarizeUnits(result.rows.units, result.rows.sessions, () => "all", { seed });
    process.stdout.write(formatSummary(result.rows, summary, out));
  }
  return result.readAnything ? EXIT.ok : EXIT.nothingRead;
}
