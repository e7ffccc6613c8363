/**
 * Gemini CLI session (document or log form, see load.ts) → normalised
 * {@link Session}.
 *
 * Records are the conversation's messages: `record` is the 1-based message
 * index (a tool call and its result live in the same `gemini` message, so
 * `record` = `result_record`). A tool call succeeded only when its `status`
 * is `success`. File edits come from `write_file` / `save_file` (content),
 * `replace` / `edit_file` / `smart_edit` (old → new string) and, where the
 * tool showed one, the `resultDisplay` FileDiff (`originalContent` →
 * `newContent`, the exact pre- and post-image). Tokens are per `gemini`
 * message. The quirks, with the real sample, are in README.md.
 */
import { createHash } from "node:crypto";
import {
  type DiagnosticSink,
  SESSION_FORMAT_VERSION,
  type ApiCall,
  type FileEdit,
  type Session,
  type ToolCall,
  type Turn,
  type Usage,
} from "../../model";
import { loadGeminiConversation } from "./load";
import { type FileDiff, type RawTokens, fileDiffSchema, messageSchema, toolCallSchema } from "./schema";

export interface GeminiSessionInput {
  /** `~/.gemini/tmp/<project hash>/chats/session-*.json(l)`, or Entire's `full.jsonl`. */
  text: string | Uint8Array;
  file: string | null;
}

const WRITE_TOOLS = new Set(["write_file", "save_file"]);
const EDIT_TOOLS = new Set(["replace", "edit_file", "smart_edit", "edit"]);
/** Used when relative paths are logged and the project root cannot be recovered: relative paths then count from the repository root. */
export const GEMINI_UNKNOWN_ROOT = "/gemini-project-root";
const ERROR_MAX = 200;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const n = (v: number | undefined): number => (typeof v === "number" && Number.isFinite(v) && v > 0 ? v : 0);
const shorten = (s: string): string => (s.length > ERROR_MAX ? `${s.slice(0, ERROR_MAX - 1)}…` : s);

/**
 * Gemini tokens → the model's Usage. `input` (promptTokenCount) includes
 * `cached`; `output` (candidatesTokenCount) excludes `thoughts`; `tool`
 * (toolUsePromptTokenCount) is prompt-side. In the real sample `total` =
 * input + output + thoughts + tool. So: input = input − cached + tool,
 * cache_read = cached, output = output + thoughts (reasoning inside, as our
 * model counts it).
 */
export function normaliseGeminiUsage(t: RawTokens): Usage {
  return {
    input_tokens: Math.max(0, n(t.input) - n(t.cached)) + n(t.tool),
    output_tokens: n(t.output) + n(t.thoughts),
    cache_creation_tokens: 0,
    cache_creation_1h_tokens: 0,
    cache_read_tokens: n(t.cached),
    reasoning_tokens: n(t.thoughts),
  };
}

/** Text of a message's content: a string, or the `text` of its parts. */
export function geminiText(content: unknown): string {
  if (typeof content === "string") return content;
  if (isObject(content) && typeof content.text === "string") return content.text;
  if (!Array.isArray(content)) return "";
  return content
    .map((p) => (isObject(p) && typeof p.text === "string" ? p.text : typeof p === "string" ? p : ""))
    .join("");
}

/** `functionResponse.response.{output,error}` of a tool call's result parts. */
function resultText(result: unknown): { output: string; error: string } {
  let output = "";
  let error = "";
  const parts = Array.isArray(result) ? result : result === undefined || result === null ? [] : [result];
  for (const p of parts) {
    const fr = isObject(p) && isObject(p.functionResponse) ? p.functionResponse : null;
    const resp = fr && isObject(fr.response) ? fr.response : null;
    if (resp && typeof resp.output === "string") output += resp.output;
    if (resp && typeof resp.error === "string") error += resp.error;
  }
  return { output, error };
}

/**
 * The absolute path a write/edit result names ("Successfully created and wrote to new file: /abs/p.",
 * "Successfully modified file: /abs/p (1 replacements).", edit.ts's "Created new file: /abs/p with provided content.").
 */
function absolutePathInResult(output: string): string | null {
  const m = /(?:file|File):\s+(\/[^\n]*?|[A-Za-z]:\\[^\n]*?)(?:\s+with provided content|\.\s*$|\s+\(|\.\n|$)/m.exec(
    output,
  );
  return m ? m[1].trim() : null;
}

/** The folder among the prefixes of `paths` whose sha256 is `projectHash` (gemini-cli `getProjectHash`), else null. */
function hashedRoot(paths: Iterable<string>, projectHash: string | null | undefined): string | null {
  if (!projectHash) return null;
  for (const p of paths) {
    const segs = p.split("/").filter((x) => x !== "");
    for (let k = segs.length - 1; k >= 1; k--) {
      const dir = `/${segs.slice(0, k).join("/")}`;
      if (createHash("sha256").update(dir).digest("hex") === projectHash) return dir;
    }
  }
  return null;
}

const isAbsolute = (p: string) => p.startsWith("/") || /^[A-Za-z]:[\\/]/.test(p);

export function parseGeminiSession(input: GeminiSessionInput, sink: DiagnosticSink): Session | null {
  const fileExtra = input.file !== null ? { file: input.file } : {};
  const loaded = loadGeminiConversation(input.text, sink);
  if (loaded === null) {
    sink.add(
      "error",
      "gemini-no-session",
      "neither a Gemini session document nor a session log with a header or messages",
      null,
      fileExtra,
    );
    return null;
  }
  const conv = loaded.conversation;
  const turns: Turn[] = [];
  const toolCalls: ToolCall[] = [];
  const apiCalls: ApiCall[] = [];
  const times: number[] = [];
  const counts = new Map<string, { count: number; first: number | null; what: string; severity: "info" | "warning" }>();
  const note = (code: string, record: number | null, what: string, severity: "info" | "warning" = "info") => {
    const c = counts.get(code);
    if (c) c.count++;
    else counts.set(code, { count: 1, first: record, what, severity });
  };
  const roots = new Set<string>();
  /** Absolute paths of edits (logged or resolved in their results): where the project root can be found by its hash. */
  const absolutes = new Set<string>();
  let relativeEdits = 0;
  const time = (ts: string | undefined) => {
    if (ts === undefined) return;
    const t = Date.parse(ts);
    if (Number.isFinite(t)) times.push(t);
    else note("gemini-invalid-timestamp", null, "unreadable timestamp(s)", "warning");
  };

  for (const [i, raw] of loaded.messages.entries()) {
    const record = i + 1;
    const parsed = messageSchema.safeParse(raw);
    if (!parsed.success) {
      note("gemini-invalid-message", record, "message(s) with an unusable shape skipped", "warning");
      continue;
    }
    const m = parsed.data;
    time(m.timestamp);
    if (m.type === "user") {
      const text = geminiText(m.displayContent ?? m.content);
      if (text.trim() === "") note("gemini-empty-prompt", record, "empty user message(s) not counted as prompts");
      else turns.push({ index: turns.length, text, timestamp: m.timestamp ?? null, record });
      continue;
    }
    if (m.type !== "gemini") continue;
    if (m.tokens) {
      const usage = normaliseGeminiUsage(m.tokens);
      const t = m.tokens;
      if (t.total !== undefined && n(t.total) !== n(t.input) + n(t.output) + n(t.thoughts) + n(t.tool)) {
        note(
          "gemini-token-total-mismatch",
          record,
          "message(s) whose `total` is not input + output + thoughts + tool (kept as logged)",
        );
      }
      if (n(t.input) + n(t.output) + n(t.thoughts) + n(t.tool) === 0)
        note(
          "gemini-zero-tokens",
          record,
          "`gemini` message(s) with all token counts 0, counted as API calls (the response was logged, its usage was not)",
        );
      apiCalls.push({
        id: m.id ?? `message:${record}`,
        model: m.model ?? null,
        timestamp: m.timestamp ?? null,
        record,
        sidechain: false,
        usage,
        speed: null,
      });
    } else {
      note("gemini-no-tokens", record, "`gemini` message(s) without token counts: not counted as API calls");
    }
    for (const [k, rawCall] of (m.toolCalls ?? []).entries()) {
      const pc = toolCallSchema.safeParse(rawCall);
      if (!pc.success) {
        note("gemini-invalid-tool-call", record, "tool call(s) with an unusable shape skipped", "warning");
        continue;
      }
      const c = pc.data;
      time(c.timestamp);
      const name = c.name ?? "(unnamed)";
      const status = c.status ?? null;
      const success = status === "success" ? true : status === "error" || status === "cancelled" ? false : null;
      if (success === null)
        note(
          "gemini-tool-call-unfinished",
          record,
          `tool call(s) with no final status (${status ?? "none"}): outcome unknown`,
          "warning",
        );
      const { output, error } = resultText(c.result);
      const display = typeof c.resultDisplay === "string" ? c.resultDisplay : "";
      const args = c.args ?? {};
      const edits: FileEdit[] = [];
      if (success === true && (WRITE_TOOLS.has(name) || EDIT_TOOLS.has(name))) {
        const logged = [args.file_path, args.absolute_path, args.path].find(
          (p): p is string => typeof p === "string" && p !== "",
        );
        const diff: FileDiff | null = isObject(c.resultDisplay)
          ? (fileDiffSchema.safeParse(c.resultDisplay).data ?? null)
          : null;
        const path = logged ?? diff?.filePath ?? null;
        if (path === null) note("gemini-edit-without-path", record, "file-changing call(s) naming no file", "warning");
        else {
          const abs = diff?.filePath ?? absolutePathInResult(output);
          for (const p of [path, abs]) if (p?.startsWith("/")) absolutes.add(p);
          if (!isAbsolute(path)) {
            relativeEdits++;
            if (abs && isAbsolute(abs) && abs.endsWith(`/${path.replace(/^\.\//, "")}`))
              roots.add(abs.slice(0, abs.length - path.replace(/^\.\//, "").length - 1));
          }
          edits.push(editOf(name, path, args, diff, output));
        }
      }
      toolCalls.push({
        id: c.id ?? `${m.id ?? record}:${k}`,
        name,
        input: args,
        timestamp: c.timestamp ?? m.timestamp ?? null,
        record,
        result_record: success === null ? null : record,
        success,
        error: success === false ? shorten((error || output || display || status || "").trim()) : null,
        sidechain: false,
        file_edits: edits,
      });
    }
  }

  const cwds = [...roots];
  // No relative edit's own result resolved it: the project root is the folder of an absolute edit path whose
  // sha256 is projectHash. Without it, relative paths got the placeholder root below and every absolute path
  // of the session fell outside the repository (found by differential fuzzing, test/reference/README.md).
  const hashed = cwds.length === 0 ? hashedRoot(absolutes, conv.projectHash) : null;
  if (hashed !== null) cwds.push(hashed);
  // The project hash is sha256 of the project root (gemini-cli `getProjectHash`): a free check of the inferred root.
  if (cwds.length > 0 && conv.projectHash && createHash("sha256").update(cwds[0]).digest("hex") !== conv.projectHash) {
    note(
      "gemini-project-root-hash-mismatch",
      null,
      `inferred project root ${cwds[0]} does not hash to the session's projectHash (the session may have run in a subfolder or another checkout)`,
      "warning",
    );
  }
  if (cwds.length > 1)
    note(
      "gemini-several-project-roots",
      null,
      `project roots inferred from tool results disagree (${cwds.join(", ")}); the first is used`,
      "warning",
    );
  if (cwds.length === 0 && relativeEdits > 0) {
    cwds.push(GEMINI_UNKNOWN_ROOT);
    note(
      "gemini-project-root-unknown",
      null,
      "relative edit path(s) and no project root in the log: they are taken relative to the repository root",
      "warning",
    );
  }
  if (loaded.rewinds > 0)
    note("gemini-rewind", null, `rewind record(s) applied (${loaded.rewinds}): the messages they dropped are not read`);
  if (loaded.replaced > 0)
    note(
      "gemini-message-updated",
      null,
      `message update(s) applied (${loaded.replaced}): the last version of each message is read`,
    );
  for (const [code, c] of counts)
    sink.add(
      c.severity,
      code,
      `${c.count} ${c.what}${c.first !== null ? `; first at message ${c.first}` : ""}`,
      c.first,
      fileExtra,
    );

  const sessionId =
    conv.sessionId ??
    (input.file ?? "gemini-session")
      .split(/[\\/]/)
      .pop()!
      .replace(/\.jsonl?$/, "");
  if (!conv.sessionId)
    sink.add(
      "warning",
      "gemini-no-session-id",
      `no sessionId: id taken from the file name (${sessionId})`,
      null,
      fileExtra,
    );
  return {
    format_version: SESSION_FORMAT_VERSION,
    session_id: sessionId,
    source: "gemini",
    agent: "Gemini CLI",
    agent_version: null,
    transcript: input.file,
    cwds,
    branch: null,
    turns,
    tool_calls: toolCalls,
    api_calls: apiCalls,
    record_times: times.sort((a, b) => a - b),
    record_count: loaded.messages.length,
  };
}

function editOf(
  name: string,
  path: string,
  args: Record<string, unknown>,
  diff: FileDiff | null,
  output: string,
): FileEdit {
  const userModified =
    args.modified_by_user === true || n(diff?.diffStat?.user_added_lines) + n(diff?.diffStat?.user_removed_lines) > 0;
  const base: FileEdit = {
    path,
    kind: WRITE_TOOLS.has(name) ? "write" : "edit",
    pre_image: null,
    post_image: null,
    edits: null,
    patch: null,
    user_modified: userModified,
  };
  // The FileDiff holds both images exactly (Gemini may correct the model's content before writing: the FileDiff has what landed).
  if (diff && typeof diff.newContent === "string") {
    return {
      ...base,
      pre_image: diff.originalContent === null ? "" : (diff.originalContent ?? (diff.isNewFile ? "" : null)),
      post_image: diff.newContent,
      patch: diff.fileDiff ?? null,
    };
  }
  const created = /Successfully created and wrote to new file/i.test(output);
  if (WRITE_TOOLS.has(name)) {
    return {
      ...base,
      pre_image: created ? "" : null,
      post_image: typeof args.content === "string" ? args.content : null,
    };
  }
  const oldString = typeof args.old_string === "string" ? args.old_string : null;
  const newString = typeof args.new_string === "string" ? args.new_string : null;
  if (oldString === null || newString === null) return base;
  // gemini-cli edit.ts succeeds with an empty old_string only when the file does not exist (it creates it; an
  // existing file is an error), so a successful one has the empty pre-image, whatever its result text says.
  if (oldString === "") return { ...base, pre_image: "", post_image: newString };
  const expected = typeof args.expected_replacements === "number" ? args.expected_replacements : 1;
  return { ...base, edits: [{ old_string: oldString, new_string: newString, replace_all: expected > 1 }] };
}
