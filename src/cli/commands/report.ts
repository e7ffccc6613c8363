import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { analyze } from "../../analyze";
import { packageRoot, writeReportTo } from "../../report";
import { summarizeUnits } from "../../tables";
import { ensureSampleCorpus } from "../../sample";
import { writeTables } from "../../tables";
import { makeProgress } from "../progress";
import { formatSummary } from "../summary";
import { EXIT, type RegisterCommand } from "./types";

interface ReportFlags {
  out: string;
  repo?: string;
  png?: boolean;
  quiet?: boolean;
  idleLimit: string;
  seed: string;
  threads?: string;
  title?: string;
  timestamp?: boolean;
  top: string;
}

export const registerReportCommand: RegisterCommand = (program: Command, setExit) => {
  program
    .command("report")
    .description("run analyze, then write a self-contained HTML report (index.html), per-session pages and figures/*.svg")
    .argument("[input...]", "git repositories with Entire checkpoints, Claude Code transcripts or projects folders (default: the bundled sample corpus)")
    .option("-o, --out <dir>", "output folder", "swe-chat-eval-report")
    .option("--repo <path>", "the git repository that the transcripts edited (when it is not the input itself)")
    .option("--png", "also write figures/*.png (300 dpi at one paper column)")
    .option("--idle-limit <seconds>", "idle gap cap for active time", "300")
    .option("--seed <n>", "bootstrap seed", "1")
    .option("--top <n>", "models, agents and repositories shown per chart before the rest are pooled", "10")
    .option("--threads <n>", "worker threads for per-session work (default: automatic)")
    .option("--title <text>", "the report's title")
    .option("--timestamp", "print the generation time in the report (otherwise reruns are byte-identical)")
    .option("-q, --quiet", "no progress bar and no summary")
    .action(async (inputs: string[], flags: ReportFlags) => {
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
  const idleLimitS = Number(flags.idleLimit);
  const seed = Number(flags.seed);
  const topN = Number(flags.top);
  const threads = flags.threads === undefined ? undefined : Number(flags.threads);
  if (!Number.isFinite(idleLimitS) || idleLimitS <= 0 || !Number.isInteger(seed) || !Number.isInteger(topN) || topN < 1) {
    process.stderr.write("error: --idle-limit must be a positive number, --seed an integer and --top a positive integer\n");
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
    idleLimitS,
    threads,
    onProgress: (done, total, label) => {
      if (done === 0) progress.start(total, label);
      else progress.update(done, label);
    },
  });
  progress.stop();
  const out = resolve(flags.out);
  await writeTables(out, result.rows, { inputs: result.inputs });
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
  });
  if (!flags.quiet) {
    for (const w of [...new Set(warnings)]) process.stderr.write(`chart warning: ${w}\n`);
    process.stdout.write(formatSummary(result.rows, summarizeUnits(result.rows.units, result.rows.sessions, () => "all", { seed }), out));
    const figures = paths.filter((p) => p.startsWith("figures/")).length;
    const pages = paths.filter((p) => p.startsWith("sessions/") && p.endsWith(".html") && p !== "sessions/index.html").length;
    process.stdout.write(`report: ${join(out, "index.html")} (${figures} figure files, ${pages} session pages)\n`);
  }
  return result.readAnything ? EXIT.ok : EXIT.nothingRead;
}
