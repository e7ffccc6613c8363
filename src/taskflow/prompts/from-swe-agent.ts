import { basename } from "node:path";
import type { DiagnosticSink } from "../../model";
import type { PromptSession } from "./from-transcript";

/**
 * The task of a SWE-agent trajectory (`.traj`, v0 and v1): a benchmark turn.
 * The first non-demonstration user message is the instance prompt; every
 * later user-role entry is an observation of a command, not a message.
 */
export function sweAgentPrompts(text: string, file: string, sink: DiagnosticSink): PromptSession | null {
  let doc: { history?: { role?: string; content?: unknown; is_demo?: boolean; message_type?: string }[] };
  try {
    doc = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch {
    sink.error("taskflow-document-unreadable", `${file}: not one JSON document`);
    return null;
  }
  const history = Array.isArray(doc?.history) ? doc.history : null;
  if (history === null) {
    sink.error("taskflow-traj-no-history", `${file}: a .traj without a history array`);
    return null;
  }
  const first = history.find((h) => h?.role === "user" && h.is_demo !== true);
  const content = first?.content;
  const message =
    typeof content === "string"
      ? content
      : Array.isArray(content)
        ? content.map((c) => (typeof c?.text === "string" ? c.text : "")).join("")
        : "";
  if (message.trim() === "") sink.warn("taskflow-traj-no-task", `${file}: no user message found`);
  return {
    session_id: basename(file).replace(/\.traj$/, ""),
    format: "swe-agent",
    ref: file,
    messages: message.trim() === "" ? [] : [message],
  };
}
