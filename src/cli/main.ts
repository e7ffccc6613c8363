import { resolve } from "node:path";
import { Command, CommanderError } from "commander";
import { analyze } from "../analyze";
import { ensureSampleCorpus } from "../sample";
import { summarizeUnits, writeTables } from "../tables";
import { makeProgress } from "./progress";
import { formatSummary } from "./summary";

/** Exit codes (architecture.md): 0 success (bad records are in diagnostics), 1 nothing could be read, 2 usage error. */
export const EXIT = { ok: 0, nothingRead: 1, usage: 2 } as const;

interface AnalyzeFlags {
  out: string;
  repo?: string;
  quiet?: boolean;
  idleLimit: string;
  seed: string;
}

export async function main(argv: string[]): Promise<number> {
  let exitCode: number = EXIT.ok;
  const program = new Command()
    .name("swe-chat-eval")
    .description("How much agent-written code survives into commits, at what cost.")
    .exitOverride()
    .configureOutput({ writeOut: (s) => process.stdout.write(s), writeErr: (s) => process.stderr.write(s) });

  program
    .command("analyze")
    .description("read sessions and commits; write units, sessions, tool_calls and diagnostics as CSV and JSON")
    .argument("[input...]", "git repositories with Entire checkpoints, Claude Code transcripts or projects folders (default: the bundled sample corpus)")
    .option("-o, --out <dir>", "output folder", "swe-chat-eval-out")
    .option("--repo <path>", "the git repository that the transcripts edited (when it is not the input itself)")
    .option("--idle-limit <seconds>", "idle gap cap for active time", "300")
    .option("--seed <n>", "bootstrap seed", "1")
    .option("-q, --quiet", "no progress bar and no summary")
    .action(async (inputs: string[], flags: AnalyzeFlags) => {
      exitCode = await runAnalyze(inputs, flags);
    });

  try {
    await program.parseAsync(argv, { from: "user" });
  } catch (err) {
    if (err instanceof CommanderError) {
      return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    throw err;
  }
  return exitCode;
}

async function runAnalyze(inputs: string[], flags: AnalyzeFlags): Promise<number> {
  const idleLimitS = Number(flags.idleLimit);
  const seed = Number(flags.seed);
  if (!Number.isFinite(idleLimitS) || idleLimitS <= 0 || !Number.isInteger(seed)) {
    process.stderr.write("error: --idle-limit must be a positive number and --seed an integer\n");
    return EXIT.usage;
  }
  let repo = flags.repo ? resolve(flags.repo) : undefined;
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
    onProgress: (done, total, label) => {
      if (done === 0) progress.start(total, label);
      else progress.update(done, label);
    },
  });
  progress.stop();
  const out = resolve(flags.out);
  await writeTables(out, result.rows, { inputs: result.inputs });
  if (!flags.quiet) {
    const summary = summarizeUnits(result.rows.units, result.rows.sessions, () => "all", { seed });
    process.stdout.write(formatSummary(result.rows, summary, out));
  }
  return result.readAnything ? EXIT.ok : EXIT.nothingRead;
}
