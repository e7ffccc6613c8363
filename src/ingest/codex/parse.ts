/**
 * Codex CLI rollout JSONL → normalised {@link Session}.
 *
 * Both generations (records.ts): the `{timestamp, type, payload}` envelope
 * and the older bare items. Prompts come from `event_msg` `user_message`
 * (the environment context and AGENTS.md text are `response_item` messages
 * and are not prompts); file edits from apply_patch calls (a
 * `custom_tool_call`, an `apply_patch` function call, or a shell /
 * exec_command running apply_patch) with the authoritative
 * `patch_apply_end` (file-edits.ts); tokens from `token_count`
 * (tokens.ts); the model from `turn_context`. Sub-agent threads are
 * separate rollouts; given with the parent, their calls and tokens are
 * added with `sidechain: true`, placed on parent lines by time.
 *
 * Never throws on bad data: what is skipped or odd becomes a diagnostic.
 * The quirks, with real examples, are in README.md next to this file.
 */
import { DiagnosticSink, SESSION_FORMAT_VERSION, type Session, type Turn } from "../../model";
import { emptyJsonlStats, forEachJsonl } from "../jsonl";
import { emptyPatchNotes, parseArguments, patchTextOfCall } from "./file-edits";
import { Notes } from "./notes";
import { attachFileChanges, type FileChangeItem } from "./file-changes";
import { buildToolCalls, type CallDraft, type Outcomes } from "./tool-calls";
import { CodexTokenCounter } from "./tokens";
import {
  classifyRecord,
  contentText,
  cwdOfEnvironmentContext,
  isInjectedUserText,
  parentThreadOf,
  type CodexRecord,
} from "./records";
import { sessionMetaSchema, turnContextSchema } from "./schema";

export interface CodexRolloutInput {
  /** The rollout (`~/.codex/sessions/YYYY/MM/DD/rollout-<ts>-<uuid>.jsonl`, or Entire's `full.jsonl`). */
  text: string | Uint8Array;
  file: string | null;
  /** Rollouts of sub-agent threads this session spawned (their `session_meta.source.subagent…parent_thread_id` is this session). */
  subagents?: { file: string; text: string | Uint8Array }[];
}

/** What one rollout file yields before sub-agents are merged. */
interface FileResult {
  sessionIds: string[];
  parentThread: string | null;
  versions: string[];
  cwds: string[];
  branch: string | null;
  turns: Turn[];
  calls: CallDraft[];
  outcomes: Outcomes;
  tokens: CodexTokenCounter;
  times: number[];
  /** (line, epoch ms) of timestamped lines, in line order: where sub-agent records land. */
  lineTimes: { line: number; t: number }[];
  records: number;
  lines: number;
}

function readFile(
  text: string | Uint8Array,
  file: string | null,
  sink: DiagnosticSink,
  notes: Notes,
  sidechain: boolean,
  prefix: string,
  mapLine: (line: number, t: number | null) => number,
): FileResult {
  const stats = emptyJsonlStats();
  const r: FileResult = {
    sessionIds: [],
    parentThread: null,
    versions: [],
    cwds: [],
    branch: null,
    turns: [],
    calls: [],
    outcomes: { patchEnds: new Map(), execEnds: new Map(), mcpEnds: new Map(), outputs: new Map() },
    tokens: new CodexTokenCounter(prefix, sidechain),
    times: [],
    lineTimes: [],
    records: 0,
    lines: 0,
  };
  const legacyPrompts: Turn[] = [];
  const fileChanges: FileChangeItem[] = [];
  const outputLines = new Map<string, number>();
  const turnStarts: number[] = [];
  let eventPrompts = 0;
  let model: string | null = null;
  const addCwd = (cwd: string | undefined | null) => {
    if (cwd && !r.cwds.includes(cwd)) r.cwds.push(cwd);
  };
  const fileSink = file !== null && file !== sink.file ? new DiagnosticSink(sink.source, file, sink.sessionId) : sink;
  forEachJsonl(
    text,
    fileSink,
    (rec) => {
      const c = classifyRecord(rec.value);
      if ("skip" in c) {
        if (c.skip === "state-marker")
          notes.add(
            "codex-state-marker",
            "info",
            rec.line,
            "`record_type: state` marker line(s) of a pre-envelope rollout skipped",
          );
        else
          notes.add(
            "codex-unknown-record",
            "info",
            rec.line,
            `record(s) of no known Codex kind skipped (first type: ${c.type ?? "none"})`,
          );
        return;
      }
      const t = c.record.timestamp !== null ? Date.parse(c.record.timestamp) : NaN;
      if (c.record.timestamp !== null && !Number.isFinite(t))
        notes.add("codex-invalid-timestamp", "warning", rec.line, "unreadable timestamp(s)");
      const time = Number.isFinite(t) ? t : null;
      if (time !== null) {
        r.times.push(time);
        r.lineTimes.push({ line: rec.line, t: time });
      }
      const line = mapLine(rec.line, time);
      handle(c.record, rec.line, line);
    },
    {},
    stats,
  );
  if (fileSink !== sink) sink.rows.push(...fileSink.rows);
  r.records = stats.records;
  r.lines = stats.lines;
  if (eventPrompts === 0 && legacyPrompts.length > 0 && !sidechain) {
    r.turns.push(...legacyPrompts);
    notes.add(
      "codex-prompts-from-messages",
      "info",
      legacyPrompts[0].record,
      "prompt(s) taken from user messages: the rollout has no `user_message` events (pre-envelope format)",
      legacyPrompts.length,
    );
  }
  attachFileChanges(r.calls, r.outcomes, fileChanges, outputLines, turnStarts, notes, prefix);
  return r;

  function handle(rec: CodexRecord, own: number, line: number): void {
    if (rec.kind === "session_meta") {
      const parsed = sessionMetaSchema.safeParse(rec.raw);
      if (!parsed.success) return;
      const p = parsed.data;
      if (p.id) r.sessionIds.push(p.id);
      addCwd(p.cwd);
      if (p.cli_version && !r.versions.includes(p.cli_version)) r.versions.push(p.cli_version);
      r.branch ??= p.git?.branch ?? null;
      r.parentThread ??= parentThreadOf(p.source);
      if (p.model) model = p.model;
      return;
    }
    if (rec.kind === "turn_context") {
      turnStarts.push(own);
      const parsed = turnContextSchema.safeParse(rec.raw);
      if (!parsed.success) return;
      addCwd(parsed.data.cwd);
      if (parsed.data.model) model = parsed.data.model;
      return;
    }
    if (rec.kind === "compacted") {
      notes.add("codex-compacted", "info", own, "compaction record(s): history replaced, nothing removed from the log");
      return;
    }
    if (rec.kind === "event_msg") event(rec, own, line);
    else item(rec, own, line);
  }

  function event(rec: CodexRecord, own: number, line: number): void {
    const p = rec.payload;
    // A new prompt or an interrupt ends what the calls before it can still do (file-changes.ts).
    if (p.type === "user_message" || p.type === "turn_aborted") turnStarts.push(own);
    switch (p.type) {
      case "user_message": {
        const text = typeof p.message === "string" ? p.message : contentText(p.message);
        if (sidechain) notes.add("codex-subagent-prompt", "info", own, "sub-agent prompt(s) not counted as prompts");
        else if ((p.kind && p.kind !== "plain") || isInjectedUserText(text))
          notes.add(
            "codex-injected-user-message",
            "info",
            own,
            "`user_message` event(s) holding injected context, not prompts",
          );
        else if (text.trim() === "") notes.add("codex-empty-prompt", "info", own, "empty `user_message` event(s)");
        else {
          eventPrompts++;
          r.turns.push({ index: r.turns.length, text, timestamp: rec.timestamp, record: line });
        }
        return;
      }
      case "patch_apply_end":
        if (p.call_id)
          r.outcomes.patchEnds.set(p.call_id, {
            record: line,
            success: p.success ?? null,
            changes: p.changes,
            stderr: p.stderr ?? "",
            stdout: p.stdout ?? "",
            timestamp: rec.timestamp,
          });
        else notes.add("codex-event-without-call-id", "warning", own, "patch_apply_end event(s) without `call_id`");
        return;
      case "exec_command_end":
        if (p.call_id)
          r.outcomes.execEnds.set(p.call_id, {
            record: line,
            exitCode: p.exit_code ?? null,
            stderr: p.stderr ?? p.aggregated_output ?? "",
          });
        return;
      case "mcp_tool_call_end": {
        const result = rec.raw.result;
        const ok =
          typeof result === "object" && result !== null
            ? "Ok" in result
              ? true
              : "Err" in result
                ? false
                : null
            : null;
        if (p.call_id) r.outcomes.mcpEnds.set(p.call_id, { record: line, success: ok });
        return;
      }
      case "token_count":
        r.tokens.add(p.info, line, rec.timestamp, model, own);
        return;
      case "item_completed": {
        // 0.149+: a turn item as it completes (file-changes.ts). FileChange is the new patch_apply_end.
        const it = rec.raw.item;
        const item = typeof it === "object" && it !== null ? (it as Record<string, unknown>) : {};
        if (item.type === "FileChange") {
          fileChanges.push({
            record: line,
            sourceLine: own,
            id: typeof item.id === "string" ? item.id : null,
            status: typeof item.status === "string" ? item.status : null,
            changes: item.changes,
            timestamp: rec.timestamp,
          });
        } else {
          notes.add(
            "codex-item-completed-other",
            "info",
            own,
            `item_completed event(s) of other types (first: ${typeof item.type === "string" ? item.type : "none"}) not read: calls take their outcomes from their own records`,
          );
        }
        return;
      }
      default:
        return;
    }
  }

  function item(rec: CodexRecord, own: number, line: number): void {
    const p = rec.payload;
    const base = { timestamp: rec.timestamp, record: line, sourceLine: own, sidechain, bare: rec.bare };
    switch (p.type) {
      case "message": {
        if (p.role === "assistant") r.tokens.modelOutput();
        if (p.role !== "user") return;
        const text = contentText(p.content);
        if (isInjectedUserText(text)) {
          addCwd(cwdOfEnvironmentContext(text));
          return;
        }
        if (!sidechain && text.trim() !== "")
          legacyPrompts.push({ index: legacyPrompts.length, text, timestamp: rec.timestamp, record: line });
        return;
      }
      case "reasoning":
        r.tokens.modelOutput();
        return;
      case "function_call": {
        r.tokens.modelOutput();
        const name = p.name ?? "(unnamed)";
        const args = parseArguments(p.arguments);
        if (args.invalid)
          notes.add(
            "codex-invalid-arguments",
            "warning",
            own,
            "function call(s) whose `arguments` are not JSON (kept as text)",
          );
        const id = p.call_id ?? p.id ?? `${prefix}line:${own}`;
        r.calls.push({ ...base, id, name, input: args.value, patchText: patchTextOfCall(name, args.value) });
        return;
      }
      case "custom_tool_call": {
        r.tokens.modelOutput();
        const name = p.name ?? "(unnamed)";
        const input = typeof p.input === "string" ? p.input : (p.input ?? null);
        const patch = typeof input === "string" && /^apply_?patch$/i.test(name) ? input : null;
        r.calls.push({ ...base, id: p.call_id ?? p.id ?? `${prefix}line:${own}`, name, input, patchText: patch });
        return;
      }
      case "local_shell_call": {
        r.tokens.modelOutput();
        const action = rec.raw.action;
        const command =
          typeof action === "object" && action !== null ? (action as Record<string, unknown>).command : undefined;
        r.calls.push({
          ...base,
          id: p.call_id ?? p.id ?? `${prefix}line:${own}`,
          name: "local_shell",
          input: action ?? null,
          patchText: patchTextOfCall("local_shell", { command }),
        });
        return;
      }
      case "web_search_call": {
        r.tokens.modelOutput();
        const id = p.id ?? `${prefix}line:${own}`;
        r.calls.push({ ...base, id, name: "web_search", input: rec.raw.action ?? null, patchText: null });
        if (p.status) r.outcomes.outputs.set(id, { record: line, output: null, status: p.status });
        return;
      }
      case "function_call_output":
      case "custom_tool_call_output":
        if (p.call_id) outputLines.set(p.call_id, own);
        if (p.call_id) r.outcomes.outputs.set(p.call_id, { record: line, output: p.output, status: null });
        else notes.add("codex-event-without-call-id", "warning", own, "tool output(s) without `call_id`");
        return;
      default:
        return;
    }
  }
}

/**
 * Parses one Codex rollout (and its sub-agent rollouts) into a Session, or
 * null when nothing Codex-like could be read (with an error diagnostic).
 */
export function parseCodexRollout(input: CodexRolloutInput, sink: DiagnosticSink): Session | null {
  const notes = new Notes();
  const patchNotes = emptyPatchNotes();
  let main: FileResult;
  try {
    main = readFile(input.text, input.file, sink, notes, false, "", (line) => line);
  } catch (e) {
    sink.add(
      "error",
      "codex-internal-error",
      `the parser failed: ${e instanceof Error ? e.message : String(e)}`,
      null,
      input.file !== null ? { file: input.file } : {},
    );
    return null;
  }
  const known =
    main.sessionIds.length +
    main.calls.length +
    main.tokens.calls.length +
    main.turns.length +
    main.outcomes.patchEnds.size;
  if (main.records === 0 || known === 0) {
    notes.flush(sink, input.file);
    sink.add(
      "error",
      main.records === 0 ? "codex-no-records" : "codex-not-codex",
      main.records === 0
        ? "the rollout holds no readable records"
        : `none of the ${main.records} records is a Codex record`,
      null,
      input.file !== null ? { file: input.file } : {},
    );
    return null;
  }

  const calls = [...main.calls];
  const apiCalls = [...main.tokens.calls];
  const times = [...main.times];
  const outcomes = main.outcomes;
  const tokenNotes = [main.tokens.notes];
  const sessionId = main.sessionIds[0] ?? idFromFileName(input.file);
  if (main.sessionIds.length === 0)
    notes.add(
      "codex-no-session-id",
      "warning",
      null,
      `rollout(s) without session_meta id: id taken from the file name (${sessionId})`,
    );
  if (new Set(main.sessionIds).size > 1)
    notes.add(
      "codex-multiple-session-ids",
      "info",
      null,
      `different session ids in one rollout (${[...new Set(main.sessionIds)].join(", ")}); the first is used`,
    );

  for (const [k, sub] of (input.subagents ?? []).entries()) {
    const place = (_line: number, t: number | null): number => {
      if (t === null || main.lineTimes.length === 0) return main.lineTimes[0]?.line ?? 1;
      let best = main.lineTimes[0].line;
      for (const lt of main.lineTimes) if (lt.t <= t) best = lt.line;
      return best;
    };
    const r = readFile(sub.text, sub.file, sink, notes, true, `subagent${k}:`, place);
    if (r.parentThread !== null && r.parentThread !== sessionId) {
      sink.add(
        "warning",
        "codex-subagent-other-parent",
        `sub-agent rollout names parent thread ${r.parentThread}, not ${sessionId}: read anyway`,
        null,
        { file: sub.file },
      );
    }
    sink.add(
      "info",
      "codex-subagent-lines-mapped",
      `${r.calls.length} tool call(s) and ${r.tokens.calls.length} API call(s) of this sub-agent rollout placed on parent lines by timestamp`,
      null,
      { file: sub.file },
    );
    calls.push(...r.calls);
    apiCalls.push(...r.tokens.calls);
    times.push(...r.times);
    tokenNotes.push(r.tokens.notes);
    for (const key of ["patchEnds", "execEnds", "mcpEnds", "outputs"] as const) {
      for (const [id, v] of r.outcomes[key] as Map<string, never>) (outcomes[key] as Map<string, never>).set(id, v);
    }
  }

  // Codex's multi-agent tools (2026) run each spawned agent as a thread with a rollout of its own.
  // Entire copies only the main rollout: without the children, their edits are nowhere in the log.
  const spawns = main.calls.filter((c) => c.name === "spawn_agent").length;
  const children = (input.subagents ?? []).length;
  if (spawns > children) {
    notes.add(
      "codex-subagent-rollout-missing",
      "warning",
      main.calls.find((c) => c.name === "spawn_agent")!.record,
      `spawn_agent call(s) whose sub-agent rollouts are not among the inputs (${children} given): what those agents edited is not in this log, so their committed lines count as human or outside`,
      spawns - children,
    );
  }

  const built = buildToolCalls(calls, outcomes, patchNotes);
  for (const n of built.notes) notes.add(n.code, n.severity, n.record, n.what, n.count);
  for (const t of tokenNotes) {
    notes.add(
      "codex-token-count-null",
      "info",
      null,
      "token_count event(s) with `info: null` (before the first request)",
      t.nullInfo,
    );
    notes.add(
      "codex-token-count-repeat",
      "info",
      t.firstRepeat,
      "token_count event(s) repeating the previous totals: not API calls",
      t.repeats,
    );
    notes.add(
      "codex-token-total-reset",
      "warning",
      null,
      "token_count total(s) lower than the previous one: `last_token_usage` used",
      t.resets,
    );
    notes.add(
      "codex-token-delta-mismatch",
      "info",
      t.firstMismatch,
      "token_count event(s) whose `last_token_usage` differs from the change in totals: the change in totals is used",
      t.mismatches,
    );
    notes.add(
      "codex-cached-over-input",
      "warning",
      null,
      "usage(s) with more cached than input tokens: uncached input set to 0",
      t.cachedOverInput,
    );
    notes.add(
      "codex-token-count-empty",
      "info",
      null,
      "token_count event(s) with neither totals nor last usage",
      t.empty,
    );
  }
  if (apiCalls.some((c) => c.model === null))
    notes.add(
      "codex-no-model",
      "info",
      null,
      "API call(s) before any turn_context naming the model: model unknown",
      apiCalls.filter((c) => c.model === null).length,
    );
  notes.add(
    "codex-patch-anchor-dropped",
    "info",
    null,
    "`@@ <anchor>` line(s) of apply_patch text dropped: those hunks are located by their context lines only",
    patchNotes.anchorsDropped,
  );
  notes.add(
    "codex-patch-move",
    "info",
    null,
    "file move(s) in a patch: the old path's lines (with their provenance) move to the new path, then the diff applies there",
    patchNotes.moves,
  );
  notes.add(
    "codex-patch-stray-lines",
    "info",
    null,
    "line(s) of apply_patch text outside the grammar ignored",
    patchNotes.strayLines,
  );
  if (main.versions.length > 1)
    notes.add(
      "codex-multiple-versions",
      "info",
      null,
      `CLI versions in one rollout (${main.versions.join(", ")}); the first is used`,
    );
  notes.flush(sink, input.file);

  return {
    format_version: SESSION_FORMAT_VERSION,
    session_id: sessionId,
    source: "codex",
    agent: "Codex",
    agent_version: main.versions[0] ?? null,
    transcript: input.file,
    cwds: main.cwds,
    branch: main.branch,
    turns: main.turns,
    tool_calls: built.calls,
    api_calls: apiCalls.sort((a, b) => a.record - b.record),
    record_times: times.sort((a, b) => a - b),
    record_count: main.lines,
  };
}

/** `rollout-2025-09-01T10-00-00-<uuid>.jsonl` → the uuid; else the base name without extension. */
function idFromFileName(file: string | null): string {
  const name = (file ?? "codex-session").split(/[\\/]/).pop() ?? "codex-session";
  const m = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl?$/i.exec(name);
  return m ? m[1] : name.replace(/\.jsonl?$/, "");
}
