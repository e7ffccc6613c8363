import { type DiagnosticSink, PROMPT_PUSHBACK, type PromptPushback, type PromptRow } from "../../model";
import { classifyPushback } from "../../signals";
import type { LlmOptions } from "../classify/llm";
import { parseCsv } from "../labels/parse-csv";
import { classifyPushbackWithLlm } from "./llm";

/**
 * Pushback labels for prompts rows from one of three sources, as Task Flow's
 * intents: `rules` (src/signals, offline, each answer naming its rule),
 * `llm` (./llm.ts) or `imported` (the rows' own `prompt_pushback`, as
 * SWE-chat gives it, or a file keyed by session id and prompt index).
 */
export type PushbackSource = "rules" | "llm" | "imported";

export interface PushbackRequest {
  source: PushbackSource;
  llm?: LlmOptions;
  /** For `imported`: a CSV or JSONL text with session_id, index and pushback columns; absent: the rows' prompt_pushback. */
  importedText?: string;
}

export interface LabelledPrompt {
  session_id: string;
  index: number;
  label: PromptPushback | null;
  /** The rule that fired (rules), else null. */
  rule: string | null;
}

export async function labelPushback(
  prompts: readonly PromptRow[],
  request: PushbackRequest,
  sink: DiagnosticSink,
): Promise<LabelledPrompt[]> {
  if (request.source === "rules") {
    return prompts.map((p) => ({
      session_id: p.session_id,
      index: p.index,
      ...(({ label, rule }) => ({ label, rule }))(classifyPushback(p.text)),
    }));
  }
  if (request.source === "llm") {
    const { labels } = await classifyPushbackWithLlm(
      prompts.map((p) => p.text),
      request.llm ?? {},
      sink,
    );
    return prompts.map((p, i) => ({ session_id: p.session_id, index: p.index, label: labels[i], rule: null }));
  }
  const table = request.importedText === undefined ? null : readImportedPushback(request.importedText, sink);
  return prompts.map((p) => ({
    session_id: p.session_id,
    index: p.index,
    label: table === null ? (p.prompt_pushback ?? null) : (table.get(`${p.session_id}#${p.index}`) ?? null),
    rule: null,
  }));
}

const SESSION_KEYS = ["session_id", "session"];
const INDEX_KEYS = ["index", "message_index", "prompt_index", "turn"];
const LABEL_KEYS = ["prompt_pushback", "pushback", "label"];

/** `session_id#index` → label, from CSV (with a header) or JSONL rows; a label outside SWE-chat's seven is a diagnostic. */
export function readImportedPushback(text: string, sink: DiagnosticSink): Map<string, PromptPushback> {
  const rows: Record<string, unknown>[] = [];
  if (text.trimStart().startsWith("{")) {
    for (const line of text.split("\n")) {
      if (line.trim() === "") continue;
      try {
        rows.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        rows.push({});
      }
    }
  } else {
    const [header, ...body] = parseCsv(text);
    for (const r of body) rows.push(Object.fromEntries((header ?? []).map((h, i) => [h.trim(), r[i]])));
  }
  const out = new Map<string, PromptPushback>();
  let bad = 0;
  let unknown = 0;
  const pick = (r: Record<string, unknown>, keys: string[]) =>
    keys.map((k) => r[k]).find((v) => v !== undefined && v !== null && v !== "");
  for (const r of rows) {
    const session = pick(r, SESSION_KEYS);
    const index = Number(pick(r, INDEX_KEYS));
    const label = pick(r, LABEL_KEYS);
    if (typeof session !== "string" || !Number.isInteger(index) || typeof label !== "string") bad++;
    else if (!(PROMPT_PUSHBACK as readonly string[]).includes(label.trim())) unknown++;
    else out.set(`${session}#${index}`, label.trim() as PromptPushback);
  }
  if (bad > 0)
    sink.warn("pushback-import-bad-row", `${bad} row(s) without a session id, an integer index and a label: skipped`);
  if (unknown > 0)
    sink.warn(
      "pushback-import-unknown-label",
      `${unknown} label(s) outside SWE-chat's pushback kinds (${PROMPT_PUSHBACK.join(", ")}): skipped`,
    );
  return out;
}
