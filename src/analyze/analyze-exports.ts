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
import { availableParallelism } from "node:os";
import { statSync } from "node:fs";
import { attributeUnitJob } from "../attribution/attribute-job";
import type { PatchMatchFile } from "../attribution/patch-match";
import { readDataClawFile } from "../ingest/dataclaw";
import { type ExportFile, findExportFiles, findExportFilesYielding } from "../ingest/detect-export";
import { readSpecStoryFile, type SpecStorySession } from "../ingest/specstory";
import { splitUnifiedDiff } from "../ingest/swe-agent";
import { checkSessionTimes, DiagnosticSink, linkAmbiguity, type Session, spillRows } from "../model";
import type { AnalysisRows } from "../model";
import type { AnalyzeOptions } from "./analyze-entire";
import { jobModulePath, packageRoot } from "./package-root";
import { mapInWorkers } from "./parallel";
import { toPromptRows, toSessionRow, toToolCallRows, withCategories } from "./session-rows";
import { runSweAgentJob, type SweAgentJob, type SweAgentResult } from "./swe-agent-job";
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
  // SWE-agent trajectories (one session per file, often thousands) are read on the worker pool; DataClaw and
  // SpecStory files here, as their turn comes in file order.
  const jobs = found.map((f) => ({ file: f.file, idleLimitS: options.idleLimitS, skip: f.format !== "swe-agent" }));
  const root = packageRoot();
  await mapInWorkers<SweAgentJob, SweAgentResult>(jobs, root ? jobModulePath(root, "swe-agent-job") : "swe-agent-job", {
    threads: root ? (options.threads ?? threadsFor(found)) : 1,
    run: runSweAgentJob,
    onResult: async (result, i) => {
      const f = found[i];
      if (f.format === "swe-agent") addSweAgentResult(result, f.file, ids, out);
      else if (f.format === "dataclaw") await dataClaw(f, options, patch, ids, out);
      else {
        const sink = new DiagnosticSink("specstory", f.file);
        const parsed = readSpecStoryFile(f.file, sink);
        if (parsed) specstory.push({ file: f.file, parsed, sink });
        else out.diagnostics.push(...sink.rows);
      }
      spillRows(out, options.spool);
      options.onProgress?.(i + 1, found.length, f.file);
    },
  });
  await specStory(specstory, options, patch, ids, out);
  return true;
}

/**
 * Below this many trajectories and bytes, workers cost more than they save: a trajectory is quick to read and
 * match (600 files, 61 MB: 1.6 s inline, 1.9 s on 2 threads; 3 000 files, 300 MB: 5.8 s inline, 5.2 s on 2).
 */
const MIN_FILES_FOR_WORKERS = 16;
const MIN_BYTES_FOR_WORKERS = 256 * 1024 * 1024;

function threadsFor(found: readonly ExportFile[]): number {
  const trajectories = found.filter((f) => f.format === "swe-agent");
  const bytes = trajectories.reduce((n, f) => n + sizeOf(f.file), 0);
  return trajectories.length >= MIN_FILES_FOR_WORKERS && bytes >= MIN_BYTES_FOR_WORKERS
    ? Math.min(availableParallelism(), 8)
    : 1;
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
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

/**
 * A trajectory's rows (./swe-agent-job.ts) into `out`, its session id claimed here, in file order: when another
 * file had the id first, every row and diagnostic of the session takes the new one.
 */
function addSweAgentResult(result: SweAgentResult, file: string, ids: SessionIds, out: AnalysisRows): void {
  const base = result.sessionId;
  const diagnostics = result.diagnostics;
  if (base !== null) {
    const sink = new DiagnosticSink("swe-agent", file, base);
    const claimed = { session_id: base } as Session;
    ids.claim(claimed, sink);
    const id = claimed.session_id;
    if (id !== base) {
      for (const d of diagnostics) if (d.session_id === base) d.session_id = id;
      diagnostics.splice(result.claimedAt, 0, ...sink.rows);
      for (const list of Object.values(result.rows))
        for (const row of list as { session_id: string }[]) if (row.session_id === base) row.session_id = id;
    }
  }
  out.sessions.push(...result.rows.sessions);
  (out.prompts ??= []).push(...result.rows.prompts);
  out.tool_calls.push(...result.rows.tool_calls);
  out.units.push(...result.rows.units);
  if (result.rows.unit_files.length > 0) (out.unit_files ??= []).push(...result.rows.unit_files);
  out.diagnostics.push(...diagnostics);
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
