/**
 * Pi (badlogic/pi-mono, `packages/coding-agent`) sessions, read independently: metrics.md §3 and §5,
 * Pi's own source (`core/session-manager.ts`, `core/tools/edit.ts`, `edit-diff.ts`, `write.ts`,
 * `path-utils.ts`, `core/messages.ts`; `packages/ai` for `usage`) and Entire's external agent
 * `entire-agent-pi` (`internal/pi/transcript.go`: a transcript position is a JSONL line count).
 *
 * The file is Pi's native session JSONL: a header `{type: "session", id, timestamp, cwd, version?}`,
 * then entries `{type, id, parentId, timestamp, …}`; `type: "message"` entries carry an `AgentMessage`
 * (`role` user / assistant / toolResult / bashExecution / custom / …). Entries form a tree by
 * `parentId` (a branch is a path from the root); the file holds every branch, in the order written.
 */
import type { RefApiCall } from "./effort";
import type { CallCounts } from "./tool-calls";
import { type FileChange, type ParsedTranscript, parseLines } from "./transcripts";

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => !!v && typeof v === "object" && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === "string" ? v : null);
const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);

/** Pi's file-changing tools (metrics.md §3 names Claude's; Pi's are `write` and `edit`, as Entire's agent lists them). */
export const PI_FILE_TOOLS = new Set(["write", "edit"]);

/** A Pi session begins with its header (session-manager.ts `SessionHeader`); a slice of one need not. */
export function isPiSession(recs: (Json | null)[]): boolean {
  const first = recs.find((r) => r !== null);
  return (
    !!first &&
    first.type === "session" &&
    typeof first.id === "string" &&
    typeof first.cwd === "string" &&
    !("payload" in first)
  );
}

const messageOf = (r: Json | null): Json | null => (r && r.type === "message" && isObj(r.message) ? r.message : null);

// --- Pi's edit tool (edit.ts, edit-diff.ts), re-applied to the replayed state ---

const normalizeToLF = (t: string): string => t.replace(/\r\n/g, "\n").replace(/\r/g, "\n");

function detectLineEnding(t: string): "\r\n" | "\n" {
  const crlf = t.indexOf("\r\n");
  const lf = t.indexOf("\n");
  if (lf === -1 || crlf === -1) return "\n";
  return crlf < lf ? "\r\n" : "\n";
}

/** edit-diff.ts `normalizeForFuzzyMatch`: NFKC, trailing blanks per line, smart quotes, dashes, special spaces. */
function fuzzy(t: string): string {
  return t
    .normalize("NFKC")
    .split("\n")
    .map((l) => l.trimEnd())
    .join("\n")
    .replace(/[\u2018\u2019\u201A\u201B]/g, "'")
    .replace(/[\u201C\u201D\u201E\u201F]/g, '"')
    .replace(/[\u2010\u2011\u2012\u2013\u2014\u2015\u2212]/g, "-")
    .replace(/[\u00A0\u2002-\u200A\u202F\u205F\u3000]/g, " ");
}

export interface PiEdit {
  oldText: string;
  newText: string;
}

/**
 * The text Pi's `edit` wrote, from the file's text before the call; null when the call could not have
 * succeeded on that text (the replayed state differs from what the tool saw: §3.2 unreplayable).
 * One edit (edit.ts): BOM stripped, CRLF/CR read as LF, the exact text first, else the fuzzy match
 * (`fuzzyFindText`: then the whole file is written in its fuzzy-normalised form); unique in the fuzzy
 * space; the file's first line ending restored. Several edits (the newer `{path, edits: [...]}`): each
 * matched, exactly and once, in the original text, none overlapping, all applied at once; a fuzzy
 * match there is not re-implemented (the newer source is not the one read): null.
 */
export function applyPiEdits(before: string, edits: PiEdit[], multi: boolean): string | null {
  const bom = before.startsWith("\uFEFF") ? "\uFEFF" : "";
  const content = bom ? before.slice(1) : before;
  const ending = detectLineEnding(content);
  const base = normalizeToLF(content);
  let out: string;
  if (!multi) {
    const oldText = normalizeToLF(edits[0].oldText);
    const newText = normalizeToLF(edits[0].newText);
    if (oldText === "") return null; // every text "contains" "": the tool would have found more than one place
    let at = base.indexOf(oldText);
    let space = base;
    let len = oldText.length;
    if (at < 0) {
      space = fuzzy(base);
      const f = fuzzy(oldText);
      at = space.indexOf(f);
      len = f.length;
      if (at < 0) return null;
    }
    if (fuzzy(base).split(fuzzy(oldText)).length - 1 > 1) return null; // edit.ts counts occurrences in the fuzzy space
    out = space.slice(0, at) + newText + space.slice(at + len);
    if (out === space) return null; // "No changes made": the tool failed
  } else {
    const spans: { at: number; end: number; text: string }[] = [];
    for (const e of edits) {
      const oldText = normalizeToLF(e.oldText);
      if (oldText === "") return null;
      const at = base.indexOf(oldText);
      if (at < 0 || base.indexOf(oldText, at + 1) >= 0) return null;
      spans.push({ at, end: at + oldText.length, text: normalizeToLF(e.newText) });
    }
    spans.sort((a, b) => a.at - b.at);
    for (let i = 1; i < spans.length; i++) if (spans[i].at < spans[i - 1].end) return null;
    out = base;
    for (let i = spans.length - 1; i >= 0; i--)
      out = out.slice(0, spans[i].at) + spans[i].text + out.slice(spans[i].end);
    if (out === base) return null;
  }
  return bom + (ending === "\r\n" ? out.replace(/\n/g, "\r\n") : out);
}

/** path-utils.ts `expandPath`: a leading `@` dropped, special spaces as spaces (`~` is left as it is: no home is known). */
const expandPath = (p: string): string =>
  (p.startsWith("@") ? p.slice(1) : p).replace(/[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g, " ");

function blank(callId: string, tool: string, resultLine: number, path: string, cwd: string | null): FileChange {
  return {
    callId,
    tool,
    resultLine,
    order: 0,
    path,
    cwd,
    preImage: null,
    postImage: null,
    stringEdits: null,
    unifiedDiff: null,
    deleted: false,
    movePath: null,
    userModified: false,
    unreplayable: null,
  };
}

/**
 * The successful `write` / `edit` calls, in the order of their `toolResult` messages in the file (the
 * result record, §3), on every branch: a file written on a branch the person later left stays written.
 * Success: a `toolResult` with that `toolCallId` and no `isError: true`. Paths: relative to the
 * header's `cwd` (path-utils.ts `resolveToCwd`). A write's post-image is its `content` (write.ts writes
 * it whole); an edit is re-applied to the replayed state (`apply`).
 */
export function parsePiTranscript(text: string): ParsedTranscript | null {
  const { records: recs, bad } = parseLines(text);
  if (!isPiSession(recs)) return null;
  const header = recs.find((r) => r !== null)!;
  const cwd = str(header.cwd);
  const uses = new Map<string, { name: string; args: Json }>();
  recs.forEach((r) => {
    const m = messageOf(r);
    if (m?.role !== "assistant" || !Array.isArray(m.content)) return;
    for (const b of m.content) {
      if (
        isObj(b) &&
        b.type === "toolCall" &&
        typeof b.id === "string" &&
        typeof b.name === "string" &&
        !uses.has(b.id)
      ) {
        uses.set(b.id, { name: b.name, args: isObj(b.arguments) ? b.arguments : {} });
      }
    }
  });
  const calls: FileChange[] = [];
  const seen = new Set<string>();
  recs.forEach((r, line) => {
    const m = messageOf(r);
    if (m?.role !== "toolResult") return;
    const id = str(m.toolCallId);
    const use = id ? uses.get(id) : undefined;
    if (!id || !use || !PI_FILE_TOOLS.has(use.name) || seen.has(id)) return;
    seen.add(id);
    if (m.isError === true) return;
    const raw = str(use.args.path) ?? str(use.args.file_path);
    if (!raw) return;
    const c = blank(id, use.name, line, expandPath(raw), cwd);
    if (use.name === "write") {
      if (typeof use.args.content === "string") c.postImage = use.args.content;
      else c.unreplayable = "write without content";
    } else {
      const a = use.args;
      const multi = Array.isArray(a.edits);
      const edits = multi
        ? (a.edits as unknown[]).map((e) =>
            isObj(e) && typeof e.oldText === "string" && typeof e.newText === "string"
              ? { oldText: e.oldText, newText: e.newText }
              : null,
          )
        : typeof a.oldText === "string" && typeof a.newText === "string"
          ? [{ oldText: a.oldText, newText: a.newText }]
          : [null];
      if (edits.length === 0 || edits.some((e) => e === null)) c.unreplayable = "edit without oldText/newText";
      else c.apply = (before: string) => applyPiEdits(before, edits as PiEdit[], multi);
    }
    calls.push(c);
  });
  return { format: "pi", lineCount: recs.length, badLines: bad, calls, cwds: cwd ? [cwd] : [] };
}

const time = (v: unknown): number | null => {
  if (typeof v !== "string") return null;
  const t = Date.parse(v);
  return Number.isFinite(t) ? t : null;
};

/**
 * §5 for Pi, over the lines given (a slice need not start with the header). One API call per assistant
 * message with a `usage` object, on every branch (each was a request; Entire's `CalculateTokens` counts
 * the active branch only, which would drop the tokens of abandoned branches). pi-ai's `usage` already
 * splits the prompt: `input` (uncached), `cacheRead`, `cacheWrite`; `output` includes reasoning. The
 * model: the message's `model`, else the latest `model_change` before it. Prompts: `user` messages with
 * text or an image. Times: every entry's `timestamp` (the header's too). `fromLine`: a unit's slice (0-based
 * line), read in the whole file so that a `model_change` before it still names the slice's model.
 */
export function piEffortParts(text: string, fromLine = 0): { calls: RefApiCall[]; prompts: number; times: number[] } {
  const { records: recs } = parseLines(text);
  const calls: RefApiCall[] = [];
  let prompts = 0;
  const times: number[] = [];
  let model: string | null = null;
  for (const [line, r] of recs.entries()) {
    if (!r) continue;
    // The model in effect carries over from before a slice's start (a model_change earlier in the file).
    if (r.type === "model_change" && typeof r.modelId === "string") model = r.modelId;
    if (line < fromLine) continue;
    const t = time(r.timestamp);
    if (t !== null) times.push(t);
    const m = messageOf(r);
    if (!m) continue;
    if (m.role === "assistant" && isObj(m.usage)) {
      const u = m.usage;
      calls.push({
        model: str(m.model) ?? model,
        timestamp: t,
        input: num(u.input),
        output: num(u.output),
        cacheWrite: num(u.cacheWrite),
        cacheWrite1h: 0,
        cacheRead: num(u.cacheRead),
        speed: null,
      });
    }
    if (m.role === "user") {
      const c = m.content;
      const said =
        typeof c === "string"
          ? c.trim() !== ""
          : Array.isArray(c) &&
            c.some(
              (p) =>
                isObj(p) &&
                ((p.type === "text" && typeof p.text === "string" && p.text.trim() !== "") || p.type === "image"),
            );
      if (said) prompts += 1;
    }
  }
  return { calls, prompts, times };
}

/** Call counts: every `toolCall` id once (all branches); edit calls are `write`/`edit` whatever their outcome; failed: `isError`. */
export function piCallCounts(text: string): CallCounts {
  const { records: recs } = parseLines(text);
  const calls = new Map<string, boolean>(); // id -> is an edit call
  const results = new Map<string, boolean>(); // id -> isError
  for (const r of recs) {
    const m = messageOf(r);
    if (m?.role === "assistant" && Array.isArray(m.content)) {
      for (const b of m.content)
        if (isObj(b) && b.type === "toolCall" && typeof b.id === "string" && !calls.has(b.id))
          calls.set(b.id, PI_FILE_TOOLS.has(str(b.name) ?? ""));
    }
    if (m?.role === "toolResult" && typeof m.toolCallId === "string" && !results.has(m.toolCallId))
      results.set(m.toolCallId, m.isError === true);
  }
  const edits = [...calls].filter(([, e]) => e).map(([id]) => id);
  return {
    tool_calls: calls.size,
    edit_calls: edits.length,
    failed_edit_calls: edits.filter((id) => results.get(id) === true).length,
    unresolved_edit_calls: edits.filter((id) => !results.has(id)).length,
  };
}
