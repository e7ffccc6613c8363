/**
 * Exports without a repository: SWE-agent trajectories, DataClaw
 * `conversations.jsonl`, SpecStory markdown (a file, or a folder of them,
 * recognised by content). Each gives `sessions` and `tool_calls` rows; units
 * only where the data holds both the agent's edits and a patch to match them
 * against, always with method `patch-match` (metrics.md §4):
 *
 * - SWE-agent: one unit per trajectory against its own `info.submission`
 *   (`commit_sha` "submission", `repo` from the SWE-bench instance id);
 * - DataClaw and SpecStory (with diffs): one unit per session against the
 *   commit patch given as `options.commitPatch` (a `git show` / `git diff`
 *   file), else none, said in a diagnostic row.
 */
import { attributeUnitJob } from "../attribution/attribute-job";
import type { PatchMatchFile } from "../attribution/patch-match";
import { readDataClawFile } from "../ingest/dataclaw";
import { type ExportFile, findExportFiles, findExportFilesYielding } from "../ingest/detect-export";
import { readSpecStoryFile, type SpecStorySession } from "../ingest/specstory";
import {
  isFileCommand,
  readSweAgentTrajectory,
  splitUnifiedDiff,
  sweAgentCategory,
  type SweAgentTrajectory,
} from "../ingest/swe-agent";
import {
  checkSessionTimes,
  DiagnosticSink,
  linkAmbiguity,
  noAmbiguity,
  type Session,
  type SessionRow,
  type ToolCallRow,
} from "../model";
import { makePathMapper } from "../replay";
import type { AnalysisRows } from "../model";
import type { AnalyzeOptions } from "./analyze-entire";
import { toPromptRows, toSessionRow, toToolCallRows } from "./session-rows";
import { readRegularFile } from "../ingest/read-regular";

export interface ExportAnalyzeOptions extends AnalyzeOptions {
  /** Path of a unified diff (one commit) to attribute DataClaw and SpecStory sessions against; without it they form no unit. */
  commitPatch?: string | null;
}

interface CommitPatch {
  sha: string;
  files: PatchMatchFile[];
  additions: number;
}

/**
 * Reads every export at `path` into `out`. Returns false, adding nothing,
 * when no file there is a SWE-agent trajectory, a DataClaw export or a
 * SpecStory export (so the caller can try other readers).
 */
export async function analyzeExportFile(
  path: string,
  options: ExportAnalyzeOptions,
  out: AnalysisRows,
): Promise<boolean> {
  const found = options.probe ? await findExportFilesYielding(path, options.probe) : findExportFiles(path);
  if (found.length === 0) return false;
  const patch = options.commitPatch ? readCommitPatch(options.commitPatch, out) : null;
  const ids = new SessionIds(out);
  options.onProgress?.(0, found.length, "exports");
  const specstory: { file: string; parsed: SpecStorySession; sink: DiagnosticSink }[] = [];
  for (const [i, f] of found.entries()) {
    if (f.format === "swe-agent") await sweAgent(f, options, ids, out);
    else if (f.format === "dataclaw") await dataClaw(f, options, patch, ids, out);
    else {
      const sink = new DiagnosticSink("specstory", f.file);
      const parsed = readSpecStoryFile(f.file, sink);
      if (parsed) specstory.push({ file: f.file, parsed, sink });
      else out.diagnostics.push(...sink.rows);
    }
    options.onProgress?.(i + 1, found.length, f.file);
  }
  await specStory(specstory, options, patch, ids, out);
  return true;
}

/** Session ids must be unique in the tables: a second run of the same SWE-bench instance gets `#2`. */
class SessionIds {
  private readonly seen = new Set<string>();
  constructor(out: AnalysisRows) {
    for (const s of out.sessions) this.seen.add(s.session_id);
  }
  claim(session: Session, sink: DiagnosticSink): void {
    const base = session.session_id;
    let id = base;
    for (let n = 2; this.seen.has(id); n++) id = `${base}#${n}`;
    if (id !== base)
      sink.warn("duplicate-session-id", `session id ${base} was already read from another file: renamed ${id}`);
    session.session_id = id;
    sink.sessionId = id;
    for (const d of sink.rows) if (d.session_id === base || d.session_id === null) d.session_id = id;
    this.seen.add(id);
  }
}

function readCommitPatch(file: string, out: AnalysisRows): CommitPatch | null {
  const sink = new DiagnosticSink("patch", file);
  let text: string;
  try {
    text = readRegularFile(file, "utf8");
  } catch (e) {
    sink.error("patch-unreadable", `cannot read the commit patch: ${e instanceof Error ? e.message : String(e)}`);
    out.diagnostics.push(...sink.rows);
    return null;
  }
  const files = splitUnifiedDiff(text);
  if (files.length === 0) {
    sink.error("patch-empty", "the commit patch holds no file diff: no unit is formed");
    out.diagnostics.push(...sink.rows);
    return null;
  }
  const sha = /^(?:From |commit )([0-9a-f]{7,40})\b/m.exec(text)?.[1] ?? "patch";
  return {
    sha,
    files: files.map((f) => ({ path: f.path, patch: f.patch })),
    additions: files.reduce((s, f) => s + f.additions, 0),
  };
}

// ---- SWE-agent ---------------------------------------------------------------

async function sweAgent(
  f: ExportFile,
  options: ExportAnalyzeOptions,
  ids: SessionIds,
  out: AnalysisRows,
): Promise<void> {
  const sink = new DiagnosticSink("swe-agent", f.file);
  const t = readSweAgentTrajectory(f.file, sink);
  if (!t) {
    out.diagnostics.push(...sink.rows);
    return;
  }
  ids.claim(t.session, sink);
  checkSessionTimes(t.session, sink);
  const session = t.session;
  const files = t.submission === null ? [] : splitUnifiedDiff(t.submission);
  const submitted = new Set(files.map((x) => x.path));
  out.sessions.push(sweAgentRow(t, options, sink));
  (out.prompts ??= []).push(...toPromptRows(t.session));
  const mapper = makePathMapper(
    session.tool_calls.flatMap((c) => c.file_edits.map((e) => e.path)),
    session.cwds,
    (p) => submitted.has(p),
  );
  out.tool_calls.push(
    ...withCategories(
      toToolCallRows(session, (p) => mapper.toRepoPath(p)),
      session,
      (call) => {
        const cmd = t.commands.get(call);
        return cmd ? sweAgentCategory(cmd) : null;
      },
    ),
  );
  if (files.length > 0) {
    sink.info(
      "attribution-patch-match",
      "unit attributed with method patch-match against info.submission (no repository file states in a trajectory)",
    );
    const subject = {
      session_id: session.session_id,
      commit_sha: "submission",
      checkpoint_id: null,
      repo: t.repo ?? "unknown",
      agent: session.agent,
      model: t.model,
      entire: null,
    };
    const evidence = {
      kind: "patch" as const,
      files: files.map((x) => ({ path: x.path, patch: x.patch })),
      numstat_additions: files.reduce((s, x) => s + x.additions, 0),
      recordedPreImages: false,
    };
    const outcome = await attributeUnitJob(
      { subject, session, sliceStart: 0, ambiguity: noAmbiguity(), evidence },
      sink,
    );
    out.units.push(outcome.unit);
    (out.unit_files ??= []).push(...outcome.files);
  }
  out.diagnostics.push(...sink.rows);
}

/** The session row, with the run's own totals: model_stats tokens, API calls and recorded cost (not our price table). */
function sweAgentRow(t: SweAgentTrajectory, options: ExportAnalyzeOptions, sink: DiagnosticSink): SessionRow {
  // A sink of its own, dropped: its only findings are about pricing our way, and the run's own cost replaces that.
  const row = toSessionRow(
    t.session,
    { repo: t.repo, idleLimitS: options.idleLimitS },
    new DiagnosticSink("swe-agent"),
  );
  const editCalls = t.session.tool_calls.filter((c) => {
    const cmd = t.commands.get(c.id);
    return cmd !== undefined && isFileCommand(cmd);
  });
  const cost = t.model_stats?.instance_cost ?? null;
  if (t.model_stats && cost !== null && cost < 0)
    sink.warn("swe-agent-negative-cost", `instance_cost ${cost} is negative: cost left null`);
  return {
    ...row,
    model: t.model,
    models: t.model ?? "",
    edit_calls: editCalls.length,
    failed_edit_calls: editCalls.filter((c) => c.success === false).length,
    input_tokens: t.model_stats?.tokens_sent ?? 0,
    output_tokens: t.model_stats?.tokens_received ?? 0,
    api_calls: t.model_stats?.api_calls ?? 0,
    cost_usd: cost !== null && cost >= 0 ? cost : null,
  };
}

/** Replaces a row's category with the adapter's own (`onlyOther`: only where the shared categories gave "other"). */
function withCategories(
  rows: ToolCallRow[],
  session: Session,
  categoryOf: (callId: string) => string | null,
  onlyOther = false,
): ToolCallRow[] {
  return rows.map((r) =>
    onlyOther && r.category !== "other"
      ? r
      : { ...r, category: categoryOf(session.tool_calls[r.seq].id) ?? r.category },
  );
}

const SPECSTORY_TYPE_CATEGORY: Record<string, string> = {
  write: "edit",
  read: "read",
  search: "grep",
  shell: "bash",
  task: "agent",
};

// ---- DataClaw ----------------------------------------------------------------

async function dataClaw(
  f: ExportFile,
  options: ExportAnalyzeOptions,
  patch: CommitPatch | null,
  ids: SessionIds,
  out: AnalysisRows,
): Promise<void> {
  const fileSink = new DiagnosticSink("dataclaw", f.file);
  const sessions = readDataClawFile(f.file, fileSink);
  out.diagnostics.push(...fileSink.rows);
  if (sessions.length === 0) return;
  const notes = new DiagnosticSink("dataclaw", f.file);
  notes.info(
    "dataclaw-patch-match-only",
    "DataClaw keeps tool inputs but no file states and no repository link: units can only use method patch-match, and only against a commit patch given with the input",
  );
  notes.info(
    "dataclaw-usage-totals",
    "tokens are the session totals DataClaw exported (its input count includes cache reads): API calls are not recorded (0) and cost is left null",
  );
  if (!patch)
    notes.info("dataclaw-no-commit-patch", `no commit patch given: ${sessions.length} session(s) read, no unit formed`);
  out.diagnostics.push(...notes.rows);
  for (const ds of sessions) {
    const sink = new DiagnosticSink("dataclaw", f.file, ds.session.session_id);
    ids.claim(ds.session, sink);
    checkSessionTimes(ds.session, sink);
    // Pricing findings dropped with their sink: DataClaw records no usage, so cost_usd is null below.
    const row = toSessionRow(
      ds.session,
      { repo: ds.project, idleLimitS: options.idleLimitS },
      new DiagnosticSink("dataclaw"),
    );
    out.sessions.push({ ...row, model: ds.model, models: ds.model ?? "", api_calls: 0, cost_usd: null });
    (out.prompts ??= []).push(...toPromptRows(ds.session));
    out.tool_calls.push(...toToolCallRows(ds.session));
    if (patch) await attributeAgainstPatch(ds.session, patch, ds.project, ds.model, sessions.length, sink, out);
    out.diagnostics.push(...sink.rows);
  }
}

/** One session's unit against the commit patch given with the input. */
async function attributeAgainstPatch(
  session: Session,
  patch: CommitPatch,
  repo: string | null,
  model: string | null,
  sessionsOnPatch: number,
  sink: DiagnosticSink,
  out: AnalysisRows,
): Promise<void> {
  const subject = {
    session_id: session.session_id,
    commit_sha: patch.sha,
    checkpoint_id: null,
    repo: repo ?? "unknown",
    agent: session.agent,
    model,
    entire: null,
  };
  // One patch for several sessions: which of them made which line cannot be told (metrics.md §1).
  const ambiguity = linkAmbiguity({ sessionsOnCommit: sessionsOnPatch, merge: false });
  const evidence = {
    kind: "patch" as const,
    files: patch.files,
    numstat_additions: patch.additions,
    recordedPreImages: false,
  };
  const outcome = await attributeUnitJob(
    {
      subject,
      session,
      sliceStart: 0,
      ambiguity,
      details: { "multi-session-commit": `${sessionsOnPatch} sessions` },
      evidence,
    },
    sink,
  );
  out.units.push(outcome.unit);
  (out.unit_files ??= []).push(...outcome.files);
}

// ---- SpecStory ---------------------------------------------------------------

async function specStory(
  parsed: { file: string; parsed: SpecStorySession; sink: DiagnosticSink }[],
  options: ExportAnalyzeOptions,
  patch: CommitPatch | null,
  ids: SessionIds,
  out: AnalysisRows,
): Promise<void> {
  // One session is exported again under a new file name whenever its title changes: keep the longest export.
  const best = new Map<string, (typeof parsed)[number]>();
  for (const p of parsed) {
    const id = p.parsed.session.session_id;
    const kept = best.get(id);
    if (!kept || p.parsed.session.record_count > kept.parsed.session.record_count) best.set(id, p);
  }
  const withDiffs = [...best.values()].filter((p) => p.parsed.has_diffs).length;
  for (const p of parsed) {
    const { session } = p.parsed;
    const kept = best.get(session.session_id);
    if (kept !== p) {
      p.sink.info(
        "specstory-duplicate-session",
        `session ${session.session_id} is also exported as ${kept!.file} (longer): this file is skipped`,
      );
      out.diagnostics.push(...p.sink.rows);
      continue;
    }
    ids.claim(session, p.sink);
    checkSessionTimes(session, p.sink);
    // Pricing findings dropped with their sink: SpecStory records no usage, so cost_usd is null below.
    const row = toSessionRow(session, { repo: null, idleLimitS: options.idleLimitS }, new DiagnosticSink("specstory"));
    out.sessions.push({
      ...row,
      model: p.parsed.models[0] ?? null,
      models: p.parsed.models.join(";"),
      api_calls: 0,
      cost_usd: null,
    });
    (out.prompts ??= []).push(...toPromptRows(session));
    // Tools the shared categories do not name (Cursor's search_replace, …) fall back on SpecStory's own data-tool-type.
    out.tool_calls.push(
      ...withCategories(
        toToolCallRows(session),
        session,
        (id) => {
          const type = (session.tool_calls.find((c) => c.id === id)?.input as { type?: string } | null)?.type;
          return type ? (SPECSTORY_TYPE_CATEGORY[type] ?? null) : null;
        },
        true,
      ),
    );
    p.sink.info(
      "specstory-no-usage",
      "SpecStory exports record no token counts: tokens and API calls are 0, cost is null",
    );
    if (!p.parsed.has_diffs)
      p.sink.info("specstory-no-attribution", "the export holds no diff: prompts and tool calls only, no unit");
    else if (!patch)
      p.sink.info(
        "specstory-no-commit-patch",
        "the export holds diffs but no commit patch was given: no unit (method would be patch-match)",
      );
    else {
      p.sink.info(
        "attribution-patch-match",
        `unit attributed with method patch-match against ${patch.sha}: the export holds diffs, not file states`,
      );
      await attributeAgainstPatch(session, patch, null, p.parsed.models[0] ?? null, withDiffs, p.sink, out);
    }
    out.diagnostics.push(...p.sink.rows);
  }
}
