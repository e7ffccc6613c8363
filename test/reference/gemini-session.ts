/**
 * Gemini CLI session files for tests and fuzzing, in the shapes formats.md §4 and gemini-cli's
 * `chatRecordingService.ts` write: the document (one pretty-printed ConversationRecord) and the log
 * (a metadata line, then message lines, `$set` and `$rewindTo` records). Field names and tool result
 * texts follow the real sample (`ab/2b9748b105/0/full.jsonl`) and gemini-cli's `write-file.ts` / `edit.ts`.
 */
import { createHash } from "node:crypto";

type Json = Record<string, unknown>;

/** The project root a test session ran in (its sha256 is the session's `projectHash`). */
export const GEMINI_ROOT = "/home/dev/gproj";
export const projectHash = (root: string): string => createHash("sha256").update(root).digest("hex");

export const ts = (s: number): string => new Date(Date.UTC(2026, 0, 1, 10, 30, 0) + s * 1000).toISOString();

export function userMessage(id: string, at: number, text: string, parts = false): Json {
  return { id, timestamp: ts(at), type: "user", content: parts ? [{ text }] : text };
}

export interface Tokens {
  input: number;
  output: number;
  cached: number;
  thoughts?: number;
  tool?: number;
}

export function geminiMessage(
  id: string,
  at: number,
  opts: { model?: string; tokens?: Tokens | null; toolCalls?: Json[]; content?: string } = {},
): Json {
  const m: Json = { id, timestamp: ts(at), type: "gemini", content: opts.content ?? "" };
  if (opts.toolCalls) m.toolCalls = opts.toolCalls;
  m.thoughts = [];
  if (opts.model !== undefined) m.model = opts.model;
  if (opts.tokens !== undefined) {
    const t = opts.tokens;
    m.tokens =
      t === null
        ? null
        : {
            input: t.input,
            output: t.output,
            cached: t.cached,
            thoughts: t.thoughts ?? 0,
            tool: t.tool ?? 0,
            total: t.input + t.output + (t.thoughts ?? 0) + (t.tool ?? 0),
          };
  }
  return m;
}

export function infoMessage(id: string, at: number, text: string): Json {
  return { id, timestamp: ts(at), type: "info", content: text };
}

export interface CallOptions {
  status?: "success" | "error" | "cancelled" | "executing" | "scheduled";
  at?: number;
  /** The text returned to the model (`result[0].functionResponse.response.output`). */
  output?: string;
  /** A FileDiff `resultDisplay` (newer Gemini CLI). */
  fileDiff?: {
    originalContent: string | null;
    newContent: string;
    filePath?: string;
    userAdded?: number;
    userRemoved?: number;
  };
  modifiedByUser?: boolean;
}

function call(id: string, name: string, args: Json, o: CallOptions): Json {
  const status = o.status ?? "success";
  const tc: Json = { id, name, args };
  if (status !== "scheduled" && status !== "executing") {
    const response =
      status === "success" ? { output: o.output ?? "ok" } : { error: o.output ?? `[Operation ${status}]` };
    tc.result = [{ functionResponse: { id, name, response } }];
  }
  tc.status = status;
  tc.timestamp = ts(o.at ?? 0);
  if (o.fileDiff) {
    const d = o.fileDiff;
    tc.resultDisplay = {
      fileDiff: "Index: f\n===================================================================\n",
      fileName: String(args.file_path).split("/").pop(),
      ...(d.filePath ? { filePath: d.filePath } : {}),
      originalContent: d.originalContent,
      newContent: d.newContent,
      diffStat: {
        model_added_lines: 0,
        model_removed_lines: 0,
        model_added_chars: 0,
        model_removed_chars: 0,
        user_added_lines: d.userAdded ?? 0,
        user_removed_lines: d.userRemoved ?? 0,
        user_added_chars: 0,
        user_removed_chars: 0,
      },
    };
  }
  tc.displayName = name === "write_file" ? "WriteFile" : name === "replace" ? "Edit" : name;
  return tc;
}

export function writeFileCall(id: string, filePath: string, content: string, o: CallOptions = {}): Json {
  return call(
    id,
    "write_file",
    { file_path: filePath, content, ...(o.modifiedByUser ? { modified_by_user: true, ai_proposed_content: "…" } : {}) },
    o,
  );
}

export function replaceCall(
  id: string,
  filePath: string,
  oldString: string,
  newString: string,
  o: CallOptions & { expected?: number } = {},
): Json {
  const args: Json = { file_path: filePath, old_string: oldString, new_string: newString };
  if (o.expected !== undefined) args.expected_replacements = o.expected;
  if (o.modifiedByUser) Object.assign(args, { modified_by_user: true, ai_proposed_content: "…" });
  return call(id, "replace", args, o);
}

export function shellCall(id: string, command: string, o: CallOptions = {}): Json {
  return call(
    id,
    "run_shell_command",
    { command, description: "run it" },
    { output: `Command: ${command}\nExit Code: 0`, ...o },
  );
}

/** The document form, pretty-printed as Gemini CLI writes it (2-space indent). */
export function geminiDocument(sessionId: string, messages: Json[], root = GEMINI_ROOT): string {
  const first = messages[0]?.timestamp ?? ts(0);
  const last = messages[messages.length - 1]?.timestamp ?? ts(0);
  return JSON.stringify(
    { sessionId, projectHash: projectHash(root), startTime: first, lastUpdated: last, messages },
    null,
    2,
  );
}

/** The log form: the metadata line, then `records` (messages, `{$set}`, `{$rewindTo}`), one JSON per line. */
export function geminiLog(sessionId: string, records: Json[], root = GEMINI_ROOT): string {
  const meta = { sessionId, projectHash: projectHash(root), startTime: ts(0), lastUpdated: ts(0), kind: "main" };
  return [meta, ...records].map((r) => `${JSON.stringify(r)}\n`).join("");
}
