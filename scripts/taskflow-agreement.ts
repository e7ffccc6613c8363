/**
 * Agreement of the rule classifier with the hand-labelled gold set.
 *
 * The gold set (test/taskflow/labels/gold.jsonl) holds labels and message
 * references only, never the texts: the texts are read here, at run time,
 * from a corpus folder (../shared/corpus by default; test/fixtures holds the
 * files whose licence allows a copy) and the development mirror of entireio/external-agents,
 * and each is checked against the sha256 it was labelled with. A missing
 * source is skipped and counted, never guessed.
 *
 *   npx tsx scripts/taskflow-agreement.ts [--corpus DIR] [--mirror DIR] [--gold FILE] [--out FILE.md] [--show-misses]
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import {
  agreementMarkdown,
  classifyByRules,
  measureAgreement,
  type PromptSession,
  readPromptSessions,
  taskLabelSchema,
  type TaskLabel,
} from "../src/taskflow";

// `… | head` closes the pipe early: that is not an error.
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code !== "EPIPE") throw e;
});

const args = process.argv.slice(2);
const opt = (name: string, fallback: string): string => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
};
const corpusDir = resolve(opt("corpus", "../shared/corpus"));
const mirrorDir = resolve(opt("mirror", process.env.TASKFLOW_MIRROR ?? "/work/.mirror/entireio+external-agents/repo"));
const goldFile = resolve(opt("gold", "test/taskflow/labels/gold.jsonl"));
const outFile = args.includes("--out") ? resolve(opt("out", "taskflow-agreement.md")) : null;

interface Gold {
  source: "corpus" | "mirror";
  file?: string;
  checkpoint_id?: string;
  session_index?: number;
  session_id: string;
  message_index: number;
  sha256: string;
  label: TaskLabel;
}

const gold: Gold[] = readFileSync(goldFile, "utf8")
  .split("\n")
  .filter((l) => l.trim() !== "")
  .map((l) => {
    const g = JSON.parse(l) as Gold;
    g.label = taskLabelSchema.parse(g.label);
    return g;
  });

// Sessions by reference: corpus files relative to the corpus root, mirror sessions as <checkpoint>/<index>.
const sessions = new Map<string, PromptSession>();
const diagnostics: { code: string; severity: string }[] = [];
const sourcesRead: string[] = [];
if (existsSync(corpusDir)) {
  for (const s of await readPromptSessions(corpusDir, diagnostics as never))
    sessions.set(`corpus:${relative(corpusDir, s.ref)}`, s);
  sourcesRead.push(`corpus (${corpusDir})`);
}
if (existsSync(mirrorDir)) {
  for (const s of await readPromptSessions(mirrorDir, diagnostics as never)) sessions.set(`mirror:${s.ref}`, s);
  sourcesRead.push(`mirror (${mirrorDir})`);
}

/** Why a labelled message was not found: its source folder or file is absent, or the message is not in it. */
function skipReason(g: Gold): string {
  if (g.source === "mirror") return existsSync(mirrorDir) ? "message not found" : "mirror absent";
  if (!existsSync(corpusDir)) return "corpus absent";
  // A corpus reference is a file, with `#<n>` for the n-th session of a file holding several (Aider).
  return existsSync(join(corpusDir, (g.file ?? "").replace(/#\d+$/, ""))) ? "message not found" : "corpus file absent";
}

const pairs: { gold: TaskLabel; predicted: TaskLabel }[] = [];
const skipped: Record<string, number> = {};
const misses: string[] = [];
const byRule: Record<string, number> = {};
for (const g of gold) {
  const key = g.source === "corpus" ? `corpus:${g.file}` : `mirror:${g.checkpoint_id}/${g.session_index}`;
  const s = sessions.get(key);
  const text = s?.messages[g.message_index];
  if (text === undefined) {
    const why = skipReason(g);
    skipped[why] = (skipped[why] ?? 0) + 1;
    continue;
  }
  if (createHash("sha256").update(text, "utf8").digest("hex") !== g.sha256) {
    skipped["text changed (sha256 differs)"] = (skipped["text changed (sha256 differs)"] ?? 0) + 1;
    continue;
  }
  const r = classifyByRules(text);
  byRule[r.rule] = (byRule[r.rule] ?? 0) + 1;
  pairs.push({ gold: g.label, predicted: r.label });
  if (r.label !== g.label) {
    const show = args.includes("--show-misses") ? `  ${JSON.stringify(text.slice(0, 100))}` : "";
    misses.push(`${key}#${g.message_index}: gold ${g.label}, rules ${r.label} (${r.rule})${show}`);
  }
}

const a = measureAgreement(pairs);
const nSkipped = Object.values(skipped).reduce((x, y) => x + y, 0);
const header =
  `Rule classifier against ${gold.length} hand-labelled real user messages ` +
  `(${a.n} scored${
    nSkipped > 0
      ? `, ${nSkipped} skipped: ${Object.entries(skipped)
          .map(([k, v]) => `${v} ${k}`)
          .join(", ")}`
      : ""
  }).\n\n`;
const md = header + agreementMarkdown(a);
process.stdout.write(md);
process.stdout.write(`\nsources read: ${sourcesRead.join(", ") || "none"}\n`);
process.stdout.write(
  `rules fired: ${Object.entries(byRule)
    .sort((x, y) => y[1] - x[1])
    .map(([k, v]) => `${k} ${v}`)
    .join(", ")}\n`,
);
if (args.includes("--show-misses") || args.includes("--misses"))
  process.stdout.write(`\ndisagreements (${misses.length}):\n${misses.join("\n")}\n`);
if (outFile) writeFileSync(outFile, md);
if (a.n === 0) process.exitCode = 1;
