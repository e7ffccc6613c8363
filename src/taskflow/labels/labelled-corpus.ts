import { readJsonl } from "../../ingest/jsonl";
import type { DiagnosticSink } from "../../model";
import type { LabelledSession } from "../model";
import { normaliseLabel, type TaskLabel } from "../taxonomy";

/**
 * The labelled corpus: JSONL, one session per line,
 * `{"session_id": "…", "labels": ["bug-fix", …]}` in message order. It is
 * what the classifiers write and what `taskflow` reads back. A line with a
 * label outside the taxonomy is left out whole (its flow would be wrong).
 */
export function readLabelledCorpus(text: string | Uint8Array, file: string, sink: DiagnosticSink): LabelledSession[] {
  const out: LabelledSession[] = [];
  for (const { line, value } of readJsonl(text, sink).records) {
    const id = value.session_id;
    const labels = value.labels;
    if ((typeof id !== "string" && typeof id !== "number") || String(id) === "" || !Array.isArray(labels)) {
      sink.add(
        "warning",
        "taskflow-corpus-line-bad",
        `${file}: line ${line} is not {"session_id": "…", "labels": […]}`,
        line,
      );
      continue;
    }
    const got = labels.map((l) => (typeof l === "string" ? normaliseLabel(l) : null));
    const bad = labels.filter((_, i) => got[i] === null);
    if (bad.length > 0) {
      sink.add(
        "warning",
        "taskflow-label-unknown",
        `${file}: line ${line} has label(s) outside the taxonomy (${bad
          .slice(0, 3)
          .map((b) => JSON.stringify(b))
          .join(", ")}): session left out`,
        line,
        { session_id: String(id) },
      );
      continue;
    }
    out.push({ session_id: String(id), labels: got as TaskLabel[] });
  }
  return out;
}

/** The labelled corpus as JSONL text (one line per session, final newline); `rules` adds the rule behind each label when known. */
export function toLabelledCorpus(
  sessions: readonly (LabelledSession & { rules?: string[] })[],
  options: { rules?: boolean } = {},
): string {
  const line = (s: LabelledSession & { rules?: string[] }) =>
    JSON.stringify(
      options.rules && s.rules
        ? { session_id: s.session_id, labels: s.labels, rules: s.rules }
        : { session_id: s.session_id, labels: s.labels },
    );
  return sessions.map(line).join("\n") + (sessions.length > 0 ? "\n" : "");
}
