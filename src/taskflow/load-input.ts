import { readFileSync, statSync } from "node:fs";
import { basename } from "node:path";
import { detectTranscriptFormat } from "../ingest/detect";
import { DiagnosticSink } from "../model";
import { classifyWithLlm, type LlmOptions, type LlmStats } from "./classify/llm";
import { classifyByRules } from "./classify/rules";
import { buildTaskFlow, type TaskFlowOptions } from "./flow";
import { applyImportedLabels, labelledSessionsFromImported, readImportedLabels } from "./labels/from-imported";
import { readLabelledCorpus } from "./labels/labelled-corpus";
import type { LabelledSession, TaskFlow } from "./model";
import type { PromptSession } from "./prompts/from-transcript";
import { readPromptSessions } from "./prompts/read-inputs";
import { isSavedTaskFlowText, readSavedTaskFlow } from "./saved";
import type { TaskLabel } from "./taxonomy";

export type ClassifierKind = "rules" | "llm" | "imported";

export interface LabelRequest {
  classifier: ClassifierKind;
  /** For `imported`: a CSV/JSON/JSONL file keyed by session id and message index. */
  labelsFile?: string;
  /** Map SWE-chat prompt_intent values in the imported file (approximate). */
  sweChatIntents?: boolean;
  llm?: LlmOptions;
}

/** A labelled session, plus for the rule classifier the rule behind each label. */
export interface ClassifiedSession extends LabelledSession {
  rules?: string[];
}

export interface LabelOutcome {
  sessions: ClassifiedSession[];
  /** Rule id → how many messages it labelled (rules classifier). */
  ruleCounts?: Record<string, number>;
  llm?: LlmStats;
}

/** Labels every message of the sessions with the chosen source; sessions that cannot be fully labelled are left out with a diagnostic. */
export async function labelPromptSessions(
  prompts: readonly PromptSession[],
  request: LabelRequest,
  sink: DiagnosticSink,
): Promise<LabelOutcome> {
  if (request.classifier === "rules") {
    const ruleCounts: Record<string, number> = {};
    const sessions = prompts.map((p): ClassifiedSession => {
      const got = p.messages.map((m) => classifyByRules(m));
      for (const g of got) ruleCounts[g.rule] = (ruleCounts[g.rule] ?? 0) + 1;
      return { session_id: p.session_id, labels: got.map((g) => g.label), rules: got.map((g) => g.rule) };
    });
    return { sessions, ruleCounts };
  }
  if (request.classifier === "imported") {
    if (!request.labelsFile) throw new Error("--classifier imported needs --labels FILE");
    const text = readFileSync(request.labelsFile, "utf8");
    const labels = readImportedLabels(text, request.labelsFile, sink, { sweChatIntents: request.sweChatIntents });
    return { sessions: applyImportedLabels(prompts, labels, sink) };
  }
  const all = prompts.flatMap((p) => p.messages);
  const { labels, stats } = await classifyWithLlm(all, request.llm ?? {}, sink);
  const sessions: ClassifiedSession[] = [];
  let at = 0;
  for (const p of prompts) {
    const got = labels.slice(at, at + p.messages.length);
    at += p.messages.length;
    if (got.some((l) => l === null)) {
      sink.add(
        "warning",
        "taskflow-llm-session-incomplete",
        `${got.filter((l) => l === null).length} of ${got.length} message(s) got no label: session left out`,
        null,
        { session_id: p.session_id, file: p.ref },
      );
      continue;
    }
    sessions.push({ session_id: p.session_id, labels: got as TaskLabel[] });
  }
  return { sessions, llm: stats };
}

export interface LoadedCorpus {
  path: string;
  kind: "saved-flow" | "labelled-corpus" | "imported-labels" | "classified";
  flow: TaskFlow;
  /** Messages labelled here (classified inputs only). */
  outcome?: LabelOutcome;
}

/**
 * One side of a comparison from a path: a saved Task Flow JSON, a labelled
 * corpus JSONL, a label table alone (CSV or JSON keyed by session id and
 * message index, e.g. SWE-chat's prompt_intent rows), or any input whose
 * prompts can be read (classified with the requested source). Null when
 * nothing could be read (see diagnostics).
 */
export async function loadCorpus(
  path: string,
  request: LabelRequest,
  flowOptions: TaskFlowOptions,
  diagnostics: DiagnosticSink["rows"],
): Promise<LoadedCorpus | null> {
  const sink = new DiagnosticSink("taskflow", path);
  const name = flowOptions.name ?? basename(path);
  try {
    let isFile = false;
    try {
      isFile = statSync(path).isFile();
    } catch {
      sink.error("input-missing", `${path} does not exist`);
      return null;
    }
    if (isFile) {
      const head = readHead(path);
      if (isSavedTaskFlowText(head)) {
        const saved = readSavedTaskFlow(readFileSync(path, "utf8"), path, sink);
        return saved ? { path, kind: "saved-flow", flow: refilter(saved, flowOptions, path, sink) } : null;
      }
      if (looksLabelledCorpus(head)) {
        const sessions = readLabelledCorpus(readFileSync(path), path, sink);
        return { path, kind: "labelled-corpus", flow: buildTaskFlow(sessions, { ...flowOptions, name }) };
      }
      if (
        /\.(csv|json)$/i.test(path) &&
        detectTranscriptFormat(head) === "unknown" &&
        !head.trimStart().startsWith('{"history"')
      ) {
        // A label table on its own (e.g. SWE-chat conversations rows with prompt_intent): sessions from its labels.
        const labels = readImportedLabels(readFileSync(path, "utf8"), path, sink, {
          sweChatIntents: request.sweChatIntents,
        });
        if (labels.size > 0)
          return {
            path,
            kind: "imported-labels",
            flow: buildTaskFlow(labelledSessionsFromImported(labels, sink), { ...flowOptions, name }),
          };
      }
    }
    const prompts = await readPromptSessions(path, sink.rows);
    if (prompts.length === 0) {
      sink.error(
        "input-unrecognised",
        `${path}: no sessions with user messages could be read (a saved Task Flow, a labelled corpus JSONL, an Entire repository, transcripts or chat logs)`,
      );
      return null;
    }
    const outcome = await labelPromptSessions(prompts, request, sink);
    return { path, kind: "classified", flow: buildTaskFlow(outcome.sessions, { ...flowOptions, name }), outcome };
  } finally {
    diagnostics.push(...sink.rows);
  }
}

/** A saved flow built with another corpus filter: rebuilt from its sequences when it can be, else kept with a warning. */
function refilter(flow: TaskFlow, o: TaskFlowOptions, path: string, sink: DiagnosticSink): TaskFlow {
  const want = o.minMessages ?? flow.min_messages;
  if (want === flow.min_messages) return flow;
  if (flow.sequences && want > flow.min_messages) {
    const sessions = flow.sequences.flatMap((s) =>
      Array.from({ length: s.n }, (_, i) => ({ session_id: `${i}`, labels: s.labels })),
    );
    const rebuilt = buildTaskFlow(sessions, {
      minMessages: want,
      nonInstantiable: flow.non_instantiable,
      allExcluded: flow.all_excluded,
      name: flow.name,
    });
    sink.info(
      "taskflow-saved-refiltered",
      `${path}: saved with min_messages ${flow.min_messages}; rebuilt from its sequences with ${want}`,
    );
    return { ...rebuilt, n_sessions_in: flow.n_sessions_in, n_empty: flow.n_empty };
  }
  sink.warn(
    "taskflow-saved-filter-kept",
    `${path}: saved with min_messages ${flow.min_messages}, asked for ${want}: its counts cannot be re-filtered${flow.sequences ? " below the saved filter" : " (no sequences saved)"}; used as saved`,
  );
  return flow;
}

function readHead(path: string): string {
  const buf = readFileSync(path);
  return new TextDecoder().decode(buf.subarray(0, 64 * 1024));
}

/** The first non-blank line is `{"session_id": …, "labels": [...]}`. */
function looksLabelledCorpus(head: string): boolean {
  const first = head.split("\n").find((l) => l.trim() !== "");
  if (!first) return false;
  try {
    const o = JSON.parse(first) as Record<string, unknown>;
    return typeof o === "object" && o !== null && "session_id" in o && Array.isArray(o.labels);
  } catch {
    return false;
  }
}
