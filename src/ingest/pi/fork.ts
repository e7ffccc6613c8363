/**
 * The copied history of a forked Pi session. `/fork` (agent-session.ts
 * `fork` → session-manager.ts `createBranchedSession`) writes a new file: a
 * header with `parentSession` and the fork time, then the path it forks from,
 * copied with the parent's ids and timestamps, then the new work;
 * `SessionManager.forkFrom` (`--fork`) copies every entry of the source file
 * the same way. The copied entries are the parent session's prompts, API
 * calls and edits: counted in the parent's file, not again here (a session is
 * one conversation, metrics.md §1). They are the leading entries dated before
 * the fork (the header's timestamp); entries Pi writes afterwards, in this
 * file, are dated at or after it. A fork of a session whose file is not read
 * loses that history from the counts: the diagnostic says how much.
 */
import type { JsonlRecord } from "../jsonl";
import type { PiHeader } from "./schema";

export interface CopiedHistory {
  /** Records (indexes into the record list) before this one are copied; the header is records[0]. */
  end: number;
  entries: number;
  prompts: number;
  toolCalls: number;
  apiCalls: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function nonZeroUsage(u: unknown): boolean {
  if (!isObject(u)) return false;
  return ["input", "output", "cacheRead", "cacheWrite"].some((k) => typeof u[k] === "number" && (u[k] as number) > 0);
}

/** The copied prefix of a forked session's records (`header` on records[0]); null when the file is not a fork. */
export function copiedHistory(records: readonly JsonlRecord[], header: PiHeader | null): CopiedHistory | null {
  if (header === null || !header.parentSession) return null;
  const forkAt = Date.parse(header.timestamp ?? "");
  const out: CopiedHistory = { end: 1, entries: 0, prompts: 0, toolCalls: 0, apiCalls: 0 };
  if (!Number.isFinite(forkAt)) return out;
  for (let i = 1; i < records.length; i++) {
    const v = records[i].value;
    const at = typeof v.timestamp === "string" ? Date.parse(v.timestamp) : NaN;
    if (!(at < forkAt) || v.type === "session") break;
    out.end = i + 1;
    out.entries++;
    const m = v.type === "message" && isObject(v.message) ? v.message : null;
    if (m?.role === "user") out.prompts++;
    if (m?.role === "assistant") {
      if (nonZeroUsage(m.usage)) out.apiCalls++;
      if (Array.isArray(m.content))
        out.toolCalls += m.content.filter((p) => isObject(p) && p.type === "toolCall").length;
    }
  }
  return out;
}
