import { writeFileSync } from "node:fs";
import { basename, resolve } from "node:path";
import type { Command } from "commander";
import type { Diagnostic } from "../../model";
import { DiagnosticSink, maskTable } from "../../model";
import {
  bootstrapTfas,
  compareTaskFlows,
  type LabelRequest,
  type LlmOptions,
  loadCorpus,
  labelPromptSessions,
  readPromptSessions,
  resolveLlmOptions,
  type TaskflowResult,
  toLabelledCorpus,
  toSavedTaskFlow,
  toTfasJson,
  topTerms,
  writeTaskflowReport,
} from "../../taskflow";
import { EXIT, type RegisterCommand } from "./types";

interface LabelFlags {
  classifier: string;
  labels?: string;
  sweChatIntents?: boolean;
  llmBaseUrl?: string;
  llmModel?: string;
  llmCache?: string;
  llmConcurrency: string;
  quiet?: boolean;
}

interface CompareFlags extends LabelFlags {
  minMessages: string;
  benchmarkMinMessages: string;
  allExcluded: string;
  replicates: string;
  seed: string;
  level: string;
  json?: boolean;
  out?: string;
  targetName?: string;
  benchmarkName?: string;
}

const withLabelOptions = (c: Command): Command =>
  c
    .option("--classifier <kind>", "how messages of transcript inputs are labelled: rules, llm or imported", "rules")
    .option("--labels <file>", "imported labels (CSV, JSON or JSONL keyed by session id and message index)")
    .option("--swe-chat-intents", "map SWE-chat prompt_intent values in --labels through the approximate table")
    .option("--llm-base-url <url>", "OpenAI-compatible endpoint (default $TASKFLOW_LLM_BASE_URL or $OPENAI_BASE_URL)")
    .option(
      "--llm-model <name>",
      "model (default $TASKFLOW_LLM_MODEL); the key comes from $TASKFLOW_LLM_API_KEY or $OPENAI_API_KEY",
    )
    .option("--llm-cache <file>", "JSONL cache of answers by message hash")
    .option("--llm-concurrency <n>", "requests in flight", "4")
    .option("-q, --quiet", "no summary on stderr");

export const registerTaskflowCommand: RegisterCommand = (program: Command, setExit) => {
  // `taskflow label X --out F` and `taskflow A B --out DIR` both have --out: main.ts enables positional
  // options on the program, so everything after "taskflow" goes to it and everything after "label" to label.
  const tf = withLabelOptions(
    program
      .command("taskflow")
      .description(
        "Task Flow of two corpora and their TaskFlow Alignment Score (S_L, S_T, S_R, TFAS with bootstrap intervals)",
      )
      .argument(
        "<target>",
        "target corpus: a saved Task Flow JSON, a labelled corpus JSONL, or an input analyze reads (labelled with --classifier)",
      )
      .argument("<benchmark>", "benchmark corpus, same kinds")
      .option("--min-messages <n>", "target corpus filter: sessions with at least n user messages", "3")
      .option("--benchmark-min-messages <n>", "benchmark corpus filter", "1")
      .option(
        "--all-excluded <how>",
        "a session whose messages are all excluded adds START→END (start-end) or nothing (skip) to P_R",
        "start-end",
      )
      .option("--replicates <n>", "bootstrap replicates", "1000")
      .option("--seed <n>", "bootstrap seed", "1")
      .option("--level <p>", "interval level", "0.95")
      .option("--target-name <name>", "the target's name in output and charts (default: its file name)")
      .option("--benchmark-name <name>", "the benchmark's name (default: its file name)")
      .option("--json", 'print only {"S_L","S_T","S_R","TFAS","ci","n_target","n_benchmark"}')
      .option("-o, --out <dir>", "write the report section, chart specs, scores and both flows to DIR"),
  )
    .enablePositionalOptions()
    .action(async (target: string, benchmark: string, flags: CompareFlags) =>
      setExit(await runCompare(target, benchmark, flags)),
    );

  withLabelOptions(
    tf
      .command("label")
      .description("label every user message of INPUT and write the labelled corpus JSONL")
      .argument("<input>", "an Entire repository, transcripts, SpecStory or Aider logs, SWE-agent trajectories")
      .requiredOption("-o, --out <file>", "labelled corpus JSONL"),
  ).action(async (input: string, flags: LabelFlags & { out: string }) => setExit(await runLabel(input, flags)));

  withLabelOptions(
    tf
      .command("save")
      .description(
        "measure one corpus and save its Task Flow JSON (counts, filter, format version) for reuse as a target",
      )
      .argument("<input>", "a labelled corpus JSONL or an input to classify")
      .requiredOption("-o, --out <file>", "Task Flow JSON")
      .option("--min-messages <n>", "corpus filter", "3")
      .option(
        "--no-sequences",
        "publish counts only (no per-sequence counts: no bootstrap or flow diagram for readers)",
      ),
  ).action(async (input: string, flags: LabelFlags & { out: string; minMessages: string; sequences: boolean }) =>
    setExit(await runSave(input, flags)),
  );
};

function labelRequest(flags: LabelFlags): LabelRequest | string {
  const kind = flags.classifier;
  if (kind !== "rules" && kind !== "llm" && kind !== "imported")
    return `--classifier must be rules, llm or imported, got ${kind}`;
  if (kind === "imported" && !flags.labels) return "--classifier imported needs --labels FILE";
  const concurrency = Number(flags.llmConcurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1) return "--llm-concurrency must be a whole number ≥ 1";
  const llm: LlmOptions = {
    baseUrl: flags.llmBaseUrl,
    model: flags.llmModel,
    cacheFile: flags.llmCache ? resolve(flags.llmCache) : null,
    concurrency,
  };
  if (kind === "llm" && resolveLlmOptions(llm).model === null)
    return "--classifier llm needs a model: --llm-model or $TASKFLOW_LLM_MODEL";
  return {
    classifier: kind,
    labelsFile: flags.labels ? resolve(flags.labels) : undefined,
    sweChatIntents: flags.sweChatIntents,
    llm,
  };
}

const usage = (message: string) => {
  process.stderr.write(`error: ${message}\n`);
  return EXIT.usage;
};

const wholeAtLeast = (s: string, min: number) => Number.isInteger(Number(s)) && Number(s) >= min;

async function runCompare(targetPath: string, benchmarkPath: string, flags: CompareFlags): Promise<number> {
  const request = labelRequest(flags);
  if (typeof request === "string") return usage(request);
  if (!wholeAtLeast(flags.minMessages, 1) || !wholeAtLeast(flags.benchmarkMinMessages, 1))
    return usage("--min-messages and --benchmark-min-messages must be whole numbers ≥ 1");
  if (!wholeAtLeast(flags.replicates, 1) || !Number.isInteger(Number(flags.seed)))
    return usage("--replicates must be a whole number ≥ 1 and --seed an integer");
  const level = Number(flags.level);
  if (!(level > 0 && level < 1)) return usage("--level must be in (0, 1)");
  if (flags.allExcluded !== "start-end" && flags.allExcluded !== "skip")
    return usage("--all-excluded must be start-end or skip");
  const allExcluded = flags.allExcluded;

  const diagnostics: Diagnostic[] = [];
  const target = await loadCorpus(
    resolve(targetPath),
    request,
    { minMessages: Number(flags.minMessages), allExcluded, name: flags.targetName ?? basename(targetPath) },
    diagnostics,
  );
  const benchmark = await loadCorpus(
    resolve(benchmarkPath),
    request,
    {
      minMessages: Number(flags.benchmarkMinMessages),
      allExcluded,
      name: flags.benchmarkName ?? basename(benchmarkPath),
    },
    diagnostics,
  );
  const empty = [target, benchmark].some((c) => c === null || c.flow.n_sessions === 0);
  if (!flags.quiet || empty) reportDiagnostics(diagnostics);
  if (!target || !benchmark || empty) {
    process.stderr.write(
      `error: nothing to compare: ${[target, benchmark].map((c, i) => `${i === 0 ? "target" : "benchmark"} ${c ? `${c.flow.n_sessions} sessions kept` : "unreadable"}`).join(", ")}\n`,
    );
    return EXIT.nothingRead;
  }
  const comparison = compareTaskFlows(target.flow, benchmark.flow);
  const ci = bootstrapTfas(target.flow, benchmark.flow, {
    replicates: Number(flags.replicates),
    seed: Number(flags.seed),
    level,
  });
  const names = uniqueNames(flags.targetName ?? basename(targetPath), flags.benchmarkName ?? basename(benchmarkPath));
  const result: TaskflowResult = {
    target: { name: names[0], path: resolve(targetPath), flow: target.flow },
    benchmark: { name: names[1], path: resolve(benchmarkPath), flow: benchmark.flow },
    comparison,
    ci,
  };
  if (flags.out) {
    const dir = resolve(flags.out);
    writeTaskflowReport(dir, result);
    writeFileSync(resolve(dir, "taskflow-diagnostics.json"), JSON.stringify(maskTable(diagnostics), null, 2) + "\n");
  }
  if (flags.json) process.stdout.write(JSON.stringify(toTfasJson(result)) + "\n");
  else process.stdout.write(formatScores(result, flags.out ? resolve(flags.out) : null));
  return EXIT.ok;
}

function uniqueNames(a: string, b: string): [string, string] {
  return a === b ? [`target (${a})`, `benchmark (${b})`] : [a, b];
}

function formatScores(r: TaskflowResult, out: string | null): string {
  const c = r.comparison;
  const ci = r.ci;
  const s = (v: number | null) => (v === null ? "undefined" : v.toFixed(3));
  const t = (v: number | null) => (v === null ? "undefined" : v.toFixed(1));
  const iv = (x: [number, number] | null, f: (v: number) => string) => (x ? `  [${f(x[0])}, ${f(x[1])}]` : "");
  const p = (v: number) => `${(100 * v).toFixed(1)}%`;
  const lines = [
    `Task Flow alignment (${Math.round(ci.level * 100)}% intervals, ${ci.replicates} session-bootstrap replicates, seed ${ci.seed})`,
    `  target    ${r.target.name}: ${r.target.flow.n_sessions} sessions (≥ ${r.target.flow.min_messages} messages) of ${r.target.flow.n_sessions_in}, ${r.target.flow.n_retained_messages} retained messages`,
    `  benchmark ${r.benchmark.name}: ${r.benchmark.flow.n_sessions} sessions (≥ ${r.benchmark.flow.min_messages} messages) of ${r.benchmark.flow.n_sessions_in}, ${r.benchmark.flow.n_retained_messages} retained messages`,
    "",
    `  S_L  ${s(c.S_L)}${iv(ci.S_L, (v) => v.toFixed(3))}   session lengths`,
    `  S_T  ${s(c.S_T)}${iv(ci.S_T, (v) => v.toFixed(3))}   task types`,
    `  S_R  ${s(c.S_R)}${iv(ci.S_R, (v) => v.toFixed(3))}   transitions`,
    `  TFAS ${t(c.TFAS)}${iv(ci.TFAS, (v) => v.toFixed(1))}`,
    "",
    "  largest differences (target vs benchmark share):",
    ...topTerms(c.divergence.task_types, 3).map((d) => `    task type  ${d.key}: ${p(d.p)} vs ${p(d.q)}`),
    ...topTerms(c.divergence.transitions, 3).map((d) => `    transition ${d.key}: ${p(d.p)} vs ${p(d.q)}`),
  ];
  if (!ci.resampled.target || !ci.resampled.benchmark)
    lines.push(`  (a side saved without sequences is held fixed in the bootstrap)`);
  if (out) lines.push("", `  report section, chart specs, scores and both flows written to ${out}`);
  return lines.join("\n") + "\n";
}

function reportDiagnostics(diagnostics: readonly Diagnostic[]): void {
  const serious = diagnostics.filter((d) => d.severity !== "info");
  if (serious.length === 0) return;
  const byCode = new Map<string, number>();
  for (const d of serious) byCode.set(d.code, (byCode.get(d.code) ?? 0) + 1);
  process.stderr.write(
    `${serious.length} warning(s)/error(s): ${[...byCode].map(([k, v]) => `${k} ×${v}`).join(", ")}\n`,
  );
  for (const d of serious.filter((x) => x.severity === "error").slice(0, 5))
    process.stderr.write(`  ${d.code}: ${d.message}\n`);
}

async function runLabel(input: string, flags: LabelFlags & { out: string }): Promise<number> {
  const request = labelRequest(flags);
  if (typeof request === "string") return usage(request);
  const sink = new DiagnosticSink("taskflow", resolve(input));
  const prompts = await readPromptSessions(resolve(input), sink.rows);
  if (!flags.quiet) reportDiagnostics(sink.rows);
  if (prompts.length === 0) {
    process.stderr.write(`error: no sessions with user messages in ${input}\n`);
    return EXIT.nothingRead;
  }
  const outcome = await labelPromptSessions(prompts, request, sink);
  // With the rules classifier each line also names the rule behind each label: the baseline explains itself.
  writeFileSync(resolve(flags.out), toLabelledCorpus(outcome.sessions, { rules: request.classifier === "rules" }));
  if (!flags.quiet) {
    const n = outcome.sessions.reduce((a, s) => a + s.labels.length, 0);
    process.stderr.write(
      `${outcome.sessions.length} session(s), ${n} message(s) labelled (${request.classifier}) → ${flags.out}\n`,
    );
    if (outcome.llm)
      process.stderr.write(
        `llm: ${outcome.llm.requests} request(s), ${outcome.llm.cacheHits} cache hit(s), ${outcome.llm.retries} retr(y/ies), ${outcome.llm.failures} failure(s)\n`,
      );
  }
  return EXIT.ok;
}

async function runSave(
  input: string,
  flags: LabelFlags & { out: string; minMessages: string; sequences: boolean },
): Promise<number> {
  const request = labelRequest(flags);
  if (typeof request === "string") return usage(request);
  if (!wholeAtLeast(flags.minMessages, 1)) return usage("--min-messages must be a whole number ≥ 1");
  const diagnostics: Diagnostic[] = [];
  const loaded = await loadCorpus(
    resolve(input),
    request,
    { minMessages: Number(flags.minMessages), name: basename(input) },
    diagnostics,
  );
  if (!flags.quiet) reportDiagnostics(diagnostics);
  if (!loaded) return EXIT.nothingRead;
  writeFileSync(resolve(flags.out), toSavedTaskFlow(loaded.flow, { sequences: flags.sequences }));
  if (!flags.quiet) process.stderr.write(`Task Flow of ${loaded.flow.n_sessions} session(s) saved to ${flags.out}\n`);
  return EXIT.ok;
}
