import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { agentTraceRecord, exportableCommits, gitAiNote } from "../../tables";
import { type AnalysisFlags, runAnalysis, withAnalysisOptions } from "./run-analysis";
import { EXIT, type RegisterCommand } from "./types";

interface ExportFlags extends AnalysisFlags {
  out: string;
  writeNotes?: boolean;
  notesRef: string;
}

const FORMATS = ["agent-trace", "git-ai"] as const;
/** git-ai's own ref: its notes are live records, ours are replayed; the two must never mix. */
const GIT_AI_REF = "refs/notes/ai";
const VERSION = "0.1.0";

export const registerExportCommand: RegisterCommand = (program: Command, setExit) => {
  withAnalysisOptions(
    program
      .command("export")
      .description(
        "write every committed line's owner for other tools: agent-trace (Agent Trace 0.1.0 JSONL) or git-ai (authorship/3.0.0 notes)",
      )
      .argument("<format>", FORMATS.join(" | "))
      .option("-o, --out <dir>", "output folder", "swe-chat-eval-export")
      .option("--write-notes", "git-ai: also add the notes to the repository (the input, or --repo)")
      .option(
        "--notes-ref <ref>",
        "git-ai: the notes ref to write (never refs/notes/ai, which git-ai owns)",
        "refs/notes/ai-replayed",
      ),
  ).action(async (format: string, inputs: string[], flags: ExportFlags) => {
    setExit(await runExport(format, inputs, flags));
  });
};

async function runExport(format: string, inputs: string[], flags: ExportFlags): Promise<number> {
  if (!(FORMATS as readonly string[]).includes(format)) {
    process.stderr.write(`error: unknown format ${format} (${FORMATS.join(", ")})\n`);
    return EXIT.usage;
  }
  const ref = flags.notesRef.startsWith("refs/") ? flags.notesRef : `refs/notes/${flags.notesRef}`;
  if (ref === GIT_AI_REF) {
    process.stderr.write(
      `error: ${GIT_AI_REF} is git-ai's own notes ref; name another (default refs/notes/ai-replayed)\n`,
    );
    return EXIT.usage;
  }
  const run = await runAnalysis(inputs, { ...flags, lines: true });
  if (typeof run === "number") return run;
  const { commits, skipped } = exportableCommits(run.result.rows);
  const out = resolve(flags.out);
  mkdirSync(out, { recursive: true });
  if (format === "agent-trace") {
    const now = new Date().toISOString();
    const records = [...commits].map(([sha, lines]) => JSON.stringify(agentTraceRecord(sha, lines, now, VERSION)));
    writeFileSync(join(out, "agent-trace.jsonl"), records.map((r) => r + "\n").join(""));
  } else {
    const dir = join(out, "git-ai");
    mkdirSync(dir, { recursive: true });
    const repo = flags.repo ? resolve(flags.repo) : resolve(inputs[0] ?? ".");
    for (const [sha, lines] of commits) {
      const file = join(dir, `${sha}.txt`);
      writeFileSync(file, gitAiNote(sha, lines, VERSION));
      if (flags.writeNotes)
        execFileSync("git", ["-C", repo, "notes", "--ref", ref, "add", "-f", "-F", file, sha], {
          stdio: ["ignore", "ignore", "pipe"],
        });
    }
  }
  if (!flags.quiet) {
    const where = format === "git-ai" && flags.writeNotes ? ` and under ${ref}` : "";
    process.stdout.write(
      `${commits.size} commit(s) exported to ${out}${where}; ${skipped} commit(s) without attributable lines left out (ambiguous strict units outside a replayed group)\n`,
    );
  }
  return run.result.readAnything ? EXIT.ok : EXIT.nothingRead;
}
