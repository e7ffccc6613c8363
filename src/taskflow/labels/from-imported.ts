import type { DiagnosticSink } from "../../model";
import type { LabelledSession } from "../model";
import type { PromptSession } from "../prompts/from-transcript";
import { normaliseLabel, type TaskLabel } from "../taxonomy";
import { fromSweChatIntent } from "./swe-chat-intent";
import { parseCsv } from "./parse-csv";

/** session id → message index → label. */
export type ImportedLabels = Map<string, Map<number, TaskLabel>>;

export interface ImportOptions {
  /** Map SWE-chat `prompt_intent` values through the approximate table (also on when the label column is `prompt_intent`). */
  sweChatIntents?: boolean;
}

const SESSION_KEYS = ["session_id", "session", "sessionId", "session_pk"];
const INDEX_KEYS = [
  "message_index",
  "index",
  "message",
  "turn",
  "turn_index",
  "turn_number",
  "conversation_turn_number",
  "position",
];
const LABEL_KEYS = ["label", "task_type", "type", "intent", "prompt_intent"];

/**
 * Labels from a file someone else made: CSV (a header row naming the
 * session, message index and label columns), a JSON array of such rows, a
 * JSON object `{session_id: [labels…]}` or `{session_id: {index: label}}`,
 * or JSONL of rows or of labelled sessions `{session_id, labels}`. A label
 * outside the taxonomy is a diagnostic, never guessed.
 */
export function readImportedLabels(
  text: string,
  file: string,
  sink: DiagnosticSink,
  options: ImportOptions = {},
): ImportedLabels {
  const out: ImportedLabels = new Map();
  const counts = { unknown: 0, mapped: 0, duplicate: 0, badRow: 0 };
  const unknownExamples = new Set<string>();
  const put = (session: unknown, index: unknown, raw: unknown, key: string) => {
    const i =
      typeof index === "number" ? index : typeof index === "string" && /^\s*\d+\s*$/.test(index) ? Number(index) : NaN;
    if (typeof session !== "string" && typeof session !== "number") return void counts.badRow++;
    if (!Number.isInteger(i) || i < 0 || typeof raw !== "string") return void counts.badRow++;
    // SWE-chat's vocabulary shares words with the taxonomy ("debug" there spans fixing): its table goes first.
    const mapped = options.sweChatIntents || key === "prompt_intent" ? fromSweChatIntent(raw) : null;
    if (mapped !== null) counts.mapped++;
    const label = mapped ?? normaliseLabel(raw);
    if (label === null) {
      counts.unknown++;
      if (unknownExamples.size < 5) unknownExamples.add(raw);
      return;
    }
    const id = String(session);
    let m = out.get(id);
    if (!m) out.set(id, (m = new Map()));
    if (m.has(i)) counts.duplicate++;
    m.set(i, label);
  };
  const fromRow = (row: Record<string, unknown>) => {
    const sKey = SESSION_KEYS.find((k) => k in row);
    if (sKey && Array.isArray(row.labels)) {
      (row.labels as unknown[]).forEach((l, i) => put(row[sKey], i, l, "labels"));
      return;
    }
    const iKey = INDEX_KEYS.find((k) => k in row);
    const lKey = LABEL_KEYS.find((k) => k in row);
    if (!sKey || !iKey || !lKey) return void counts.badRow++;
    put(row[sKey], row[iKey], row[lKey], lKey);
  };

  const trimmed = text.replace(/^\uFEFF/, "").trim();
  let whole: unknown;
  if (trimmed.startsWith("[") || trimmed.startsWith("{")) {
    try {
      whole = JSON.parse(trimmed);
    } catch {
      whole = undefined;
    }
  }
  if (Array.isArray(whole)) {
    whole.forEach((r) => (r && typeof r === "object" ? fromRow(r as Record<string, unknown>) : counts.badRow++));
  } else if (whole && typeof whole === "object") {
    for (const [id, v] of Object.entries(whole as Record<string, unknown>)) {
      if (Array.isArray(v)) v.forEach((l, i) => put(id, i, l, "labels"));
      else if (v && typeof v === "object")
        for (const [i, l] of Object.entries(v as Record<string, unknown>)) put(id, i, l, "labels");
      else counts.badRow++;
    }
  } else if (trimmed.startsWith("{")) {
    // JSONL: one row or one labelled session per line.
    trimmed.split("\n").forEach((line) => {
      if (line.trim() === "") return;
      try {
        fromRow(JSON.parse(line));
      } catch {
        counts.badRow++;
      }
    });
  } else {
    const rows = parseCsv(trimmed);
    const header = (rows.shift() ?? []).map((h) => h.trim());
    const sCol = header.findIndex((h) => SESSION_KEYS.includes(h));
    const iCol = header.findIndex((h) => INDEX_KEYS.includes(h));
    const lCol = header.findIndex((h) => LABEL_KEYS.includes(h));
    if (sCol < 0 || iCol < 0 || lCol < 0) {
      sink.error(
        "taskflow-labels-unreadable",
        `${file}: a CSV header must name a session (${SESSION_KEYS.join("/")}), message index (${INDEX_KEYS.join("/")}) and label (${LABEL_KEYS.join("/")}) column; got ${header.join(",")}`,
      );
      return out;
    }
    for (const r of rows) if (!(r.length === 1 && r[0] === "")) put(r[sCol], r[iCol], r[lCol], header[lCol]);
  }
  if (counts.badRow > 0)
    sink.warn(
      "taskflow-label-row-bad",
      `${file}: ${counts.badRow} row(s) without a session id, a whole message index ≥ 0 and a label were skipped`,
    );
  if (counts.unknown > 0)
    sink.warn(
      "taskflow-label-unknown",
      `${file}: ${counts.unknown} label(s) are not in the taxonomy and were skipped (e.g. ${[...unknownExamples].map((x) => JSON.stringify(x)).join(", ")})`,
    );
  if (counts.mapped > 0)
    sink.info(
      "taskflow-label-mapped-approximate",
      `${file}: ${counts.mapped} SWE-chat prompt_intent value(s) mapped to the taxonomy through the approximate table`,
    );
  if (counts.duplicate > 0)
    sink.warn(
      "taskflow-label-duplicate",
      `${file}: ${counts.duplicate} (session, message index) pair(s) labelled twice; the last one is kept`,
    );
  return out;
}

/** Sessions made from the imported labels alone, labels in message-index order (indices need not be contiguous). */
export function labelledSessionsFromImported(labels: ImportedLabels, sink: DiagnosticSink): LabelledSession[] {
  let gaps = 0;
  const out: LabelledSession[] = [];
  for (const id of [...labels.keys()].sort()) {
    const m = labels.get(id)!;
    const idx = [...m.keys()].sort((a, b) => a - b);
    if (idx[idx.length - 1] !== idx.length - 1) gaps++;
    out.push({ session_id: id, labels: idx.map((i) => m.get(i)!) });
  }
  if (gaps > 0)
    sink.info(
      "taskflow-label-index-gaps",
      `${gaps} session(s) have message indices that are not 0…n−1: read as an order (length = number of labels)`,
    );
  return out;
}

/**
 * Labels for the messages of sessions read from an input: message i gets the
 * label imported for (session, i). A session with an unlabelled message is
 * left out (its length and transitions would be wrong), with a diagnostic.
 */
export function applyImportedLabels(
  sessions: readonly PromptSession[],
  labels: ImportedLabels,
  sink: DiagnosticSink,
): LabelledSession[] {
  const out: LabelledSession[] = [];
  const used = new Set<string>();
  let extra = 0;
  for (const s of sessions) {
    const m = labels.get(s.session_id);
    if (m) used.add(s.session_id);
    const got = s.messages.map((_, i) => m?.get(i) ?? null);
    if (got.some((l) => l === null)) {
      sink.add(
        "warning",
        "taskflow-label-missing",
        `${got.filter((l) => l === null).length} of ${got.length} message(s) have no imported label: session left out`,
        null,
        { session_id: s.session_id, file: s.ref },
      );
      continue;
    }
    if (m) for (const i of m.keys()) if (i >= s.messages.length) extra++;
    out.push({ session_id: s.session_id, labels: got as TaskLabel[] });
  }
  if (extra > 0)
    sink.warn(
      "taskflow-label-extra",
      `${extra} imported label(s) point past the last message of their session and were ignored`,
    );
  const unused = [...labels.keys()].filter((id) => !used.has(id)).length;
  if (unused > 0)
    sink.info("taskflow-label-unused", `${unused} labelled session id(s) are not among the input's sessions`);
  return out;
}
