import { resolve } from "node:path";
import type { Command } from "commander";
import { analyze, type AnalyzeResult, type Shard } from "../../analyze";
import { type RowSpool, rowsForOutput, type SecretsPolicy } from "../../model";
import { ensureSampleCorpus } from "../../sample";
import { makeProgress } from "../progress";
import { EXIT } from "./types";

/** The flags `analyze` and `report` share: what to read and how. */
export interface AnalysisFlags {
  repo?: string;
  repos?: string;
  quiet?: boolean;
  idleLimit: string;
  seed: string;
  threads?: string;
  patch?: string;
  keepExcludedRepos?: boolean;
  keepSecrets?: boolean;
  lines?: boolean;
}

/** Adds the inputs argument and the shared options (after the command's own `--out`). */
export function withAnalysisOptions(command: Command): Command {
  return command
    .argument(
      "[input...]",
      "git repositories with Entire checkpoints, agent transcripts or their folders, exports, a SWE-chat dataset folder (default: the bundled sample corpus)",
    )
    .option("--repo <path>", "the git repository that the transcripts edited (when it is not the input itself)")
    .option(
      "--repos <dir>",
      "SWE-chat dataset: a folder of clones as <owner>/<name>; the groups of those repositories are replayed on their file states",
    )
    .option("--idle-limit <seconds>", "idle gap cap for active time", "300")
    .option("--seed <n>", "bootstrap seed", "1")
    .option(
      "--patch <file>",
      "a commit as a unified diff (git show / git diff) to attribute DataClaw and SpecStory sessions against (method patch-match)",
    )
    .option(
      "--keep-excluded-repos",
      "SWE-chat dataset: keep dayhaysoos/nimbus (excluded by default: machine-generated prompts)",
    )
    .option(
      "--keep-secrets",
      "write credential-looking text (API keys, tokens) as it is, for use on your own machine (default: masked)",
    )
    .option("--threads <n>", "worker threads for per-session work (default: automatic)")
    .option("--lines", "also write line_ranges: every committed line's owner, as runs (git-replay units and groups)")
    .option("-q, --quiet", "no progress bar and no summary");
}

/**
 * Checks the shared flags, falls back to the bundled sample corpus without
 * input, and runs `analyze` with a progress bar. A number is a usage error's exit code.
 */
export interface AnalysisRun {
  result: AnalyzeResult;
  seed: number;
  /** Whether the rows were masked: the tables' manifest and the report say so. */
  secrets: SecretsPolicy;
}

export async function runAnalysis(
  inputs: string[],
  flags: AnalysisFlags,
  shard?: Shard,
  spool?: RowSpool,
): Promise<AnalysisRun | number> {
  const idleLimitS = Number(flags.idleLimit);
  const seed = Number(flags.seed);
  const threads = flags.threads === undefined ? undefined : Number(flags.threads);
  if (!Number.isFinite(idleLimitS) || idleLimitS <= 0 || !Number.isInteger(seed)) {
    process.stderr.write("error: --idle-limit must be a positive number and --seed an integer\n");
    return EXIT.usage;
  }
  if (threads !== undefined && (!Number.isInteger(threads) || threads < 1)) {
    process.stderr.write("error: --threads must be a positive integer\n");
    return EXIT.usage;
  }
  if (inputs.length === 0) {
    const sample = await ensureSampleCorpus();
    inputs = [sample.repoDir];
    if (!flags.quiet) process.stderr.write(`no input given: using the bundled sample corpus at ${sample.repoDir}\n`);
  }
  const progress = makeProgress(Boolean(flags.quiet));
  const result = await analyze({
    inputs: inputs.map((p) => resolve(p)),
    repo: flags.repo ? resolve(flags.repo) : undefined,
    repos: flags.repos ? resolve(flags.repos) : undefined,
    idleLimitS,
    threads,
    commitPatch: flags.patch ? resolve(flags.patch) : undefined,
    includeExcludedRepos: Boolean(flags.keepExcludedRepos),
    shard,
    lines: Boolean(flags.lines),
    spool,
    onProgress: (done, total, label) => {
      if (done === 0) progress.start(total, label);
      else progress.update(done, label);
    },
  });
  progress.stop();
  // Masked once here, before anything is written or printed: tables, report and summary all see the same rows.
  const secrets: SecretsPolicy = flags.keepSecrets ? "kept" : "masked";
  return { result: { ...result, rows: rowsForOutput(result.rows, secrets) }, seed, secrets };
}
