import { attributeAtCommit, type CommitAttribution, type CommittedFile } from "../attribution/at-commit";
import type { DiagnosticSink, Session, ToolCall } from "../model";
import { isBinaryText, makePathMapper, type ReplayStep, replayEdits, resolveSymlinks } from "../replay";

/** What the replay of one unit needs from the repository. */
export interface UnitFiles {
  /** Files the commit changes (first-parent diff); binary files have no lines. */
  changed: readonly { path: string; binary: boolean }[];
  /** File text at the unit's base (first parent), null when absent. */
  readBase(path: string): Promise<string | null>;
  /** File text at the commit, null when absent. */
  readCommit(path: string): Promise<string | null>;
  /** Whether a repo-relative path exists at the base or at the commit (for path mapping). */
  exists(path: string): boolean;
  /**
   * The stored target of a symbolic link (git mode 120000) at the base or at the commit; undefined for a path
   * that is not a link. Edits through a link are replayed on the file it names.
   */
  linkTarget?(path: string): string | undefined;
  /** Names the unit in diagnostics (e.g. `commit 1a2b3c4d`), since one session's calls are replayed once per unit. */
  label?: string;
}

export interface UnitAttribution extends CommitAttribution {
  unreplayable_calls: number;
  outside_changes: number;
  files_outside_repo: number;
}

/** The first line of a Git LFS pointer file (git-lfs.github.com/spec/v1). */
const LFS_POINTER = "version https://git-lfs.github.com/spec/v1\n";

/**
 * Replays the successful file edits of one session's checkpoint slice on the
 * unit's base and attributes the commit's added lines (metrics.md §3–4).
 * `transcriptStart` is the 0-based line where the slice begins: calls whose
 * result lies before it belong to earlier checkpoints.
 *
 * The async part only reads files; the work is in plain synchronous helpers
 * with loops: V8 compiles an async function with everything it inlines as one
 * unit, and recompiles all of it whenever a new object shape reaches it (each
 * session runs it once, so that happened about ten times per process, 70 ms
 * of compiling each).
 */
export async function attributeUnit(session: Session, transcriptStart: number, files: UnitFiles, sink: DiagnosticSink): Promise<UnitAttribution> {
  const prefix = files.label ? `${files.label}: ` : "";
  const plan = planReplay(session, transcriptStart, files, new Set(files.changed.map((f) => f.path)), prefix, sink);
  const paths = basePaths(plan.steps, files.changed);
  const bases = new Map<string, string | null>();
  for (let i = 0; i < paths.length; i++) bases.set(paths[i], await files.readBase(paths[i]));
  const commits = new Map<string, string | null>();
  const changed: { path: string; binary: boolean }[] = [];
  for (const file of files.changed) {
    const text = await files.readCommit(file.path);
    // git calls a file binary when either side has a NUL in its first 8000 bytes; metrics.md §2 asks it of each
    // state, so a file that turns from binary to text has the lines of its committed text (and a base of none).
    const binary = file.binary && (text === null || isBinaryText(text));
    if (!binary) commits.set(file.path, text);
    if (text !== null && text.startsWith(LFS_POINTER)) {
      sink.info("git-lfs-pointer", `${prefix}${file.path} is a Git LFS pointer in the commit: its committed lines are the pointer's (as git counts them), not the stored file's, so an agent's edits of the real file do not survive here`);
    }
    changed.push(binary === file.binary ? file : { path: file.path, binary });
  }
  return replayAndAttribute(plan, bases, commits, changed, prefix, sink);
}

interface ReplayPlan {
  steps: ReplayStep[];
  outsideRepo: number;
}

/** The successful file-changing calls of the slice, in the order of their results. */
export function callsInSlice(session: Session, transcriptStart: number): ToolCall[] {
  const picked: { c: ToolCall; at: number; order: number }[] = [];
  const all = session.tool_calls;
  for (let i = 0; i < all.length; i++) {
    const c = all[i];
    if (c.success !== true || c.file_edits.length === 0) continue;
    const at = c.result_record ?? c.record;
    if (at > transcriptStart) picked.push({ c, at, order: picked.length });
  }
  picked.sort(byResultThenOrder);
  const out: ToolCall[] = [];
  for (let i = 0; i < picked.length; i++) out.push(picked[i].c);
  return out;
}

function byResultThenOrder(a: { at: number; order: number }, b: { at: number; order: number }): number {
  return a.at - b.at || a.order - b.order;
}

function planReplay(session: Session, transcriptStart: number, files: UnitFiles, changed: ReadonlySet<string>, prefix: string, sink: DiagnosticSink): ReplayPlan {
  const calls = callsInSlice(session, transcriptStart);
  const logged: string[] = [];
  for (const call of calls) {
    for (const edit of call.file_edits) {
      logged.push(edit.path);
      if (edit.moved_from) logged.push(edit.moved_from);
    }
  }
  // Ties between candidate roots go to the one whose paths the commit changes (a monorepo package's package.json).
  const mapper = makePathMapper(logged, session.cwds, (p) => files.exists(p), (p) => changed.has(p));
  const linked = new Map<string, string | null>();
  const toRepoPath = (logged: string, record: number): string | null => {
    const mapped = mapper.toRepoPath(logged);
    if (mapped === null || files.linkTarget === undefined) return mapped;
    let resolved = linked.get(mapped);
    if (resolved === undefined) {
      resolved = resolveSymlinks(mapped, (p) => files.linkTarget?.(p));
      linked.set(mapped, resolved);
      if (resolved !== mapped) {
        sink.info(
          "edit-through-symlink",
          resolved === null
            ? `${prefix}${mapped} is a symbolic link that leads outside the repository (or loops): edits through it are ignored`
            : `${prefix}${mapped} is a symbolic link in the repository: edits through it are replayed on ${resolved}, the file it names`,
          record,
        );
      }
    }
    return resolved;
  };
  const steps: ReplayStep[] = [];
  const outside = new Set<string>();
  for (const call of calls) {
    for (const edit of call.file_edits) {
      const path = toRepoPath(edit.path, call.record);
      if (path === null) {
        if (!outside.has(edit.path)) {
          outside.add(edit.path);
          sink.info("path-outside-repo", `${prefix}${call.name} edited ${edit.path}, outside the repository${mapper.root ? ` (${mapper.root})` : ""}: ignored`, call.record);
        }
        continue;
      }
      // A move from outside the repository brings no tracked lines: the edit applies to the new path's own state.
      const from = edit.moved_from ? toRepoPath(edit.moved_from, call.record) : null;
      // Every step has `from` (undefined when not a move): one object shape for V8.
      steps.push({ call, edit, path, from: from !== null && from !== path ? from : undefined });
    }
  }
  return { steps, outsideRepo: outside.size };
}

/** Every file whose base is needed: those the agent edited, then those the commit changes. */
function basePaths(steps: readonly ReplayStep[], changed: UnitFiles["changed"]): string[] {
  const seen = new Set<string>();
  for (const step of steps) {
    if (step.from !== undefined) seen.add(step.from);
    seen.add(step.path);
  }
  for (const file of changed) seen.add(file.path);
  return Array.from(seen);
}

function replayAndAttribute(
  plan: ReplayPlan,
  bases: Map<string, string | null>,
  commits: Map<string, string | null>,
  changed: UnitFiles["changed"],
  prefix: string,
  sink: DiagnosticSink,
): UnitAttribution {
  const replay = replayEdits(plan.steps, (path) => bases.get(path) ?? null);
  for (const issue of replay.issues) {
    if (issue.code === "edit-unreplayable") sink.warn(issue.code, prefix + issue.message, issue.record);
    else sink.info(issue.code, prefix + issue.message, issue.record);
  }
  const committed: CommittedFile[] = [];
  for (const file of changed) {
    if (file.binary) continue;
    committed.push({ path: file.path, base: bases.get(file.path) ?? null, commit: commits.get(file.path) ?? null });
  }
  const counts = attributeAtCommit(replay, committed);
  return {
    agent_lines_produced: counts.agent_lines_produced,
    agent_lines_final: counts.agent_lines_final,
    agent_lines_survived: counts.agent_lines_survived,
    human_lines: counts.human_lines,
    outside_lines: counts.outside_lines,
    total_committed_lines: counts.total_committed_lines,
    files: counts.files,
    unreplayable_calls: replay.unreplayable,
    outside_changes: replay.outsideChanges,
    files_outside_repo: plan.outsideRepo,
  };
}
