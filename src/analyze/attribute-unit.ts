import { attributeAtCommit, type CommitAttribution, type CommittedFile } from "../attribution/at-commit";
import type { DiagnosticSink, Session } from "../model";
import { makePathMapper, type ReplayStep, replayEdits } from "../replay";

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
  /** Names the unit in diagnostics (e.g. `commit 1a2b3c4d`), since one session's calls are replayed once per unit. */
  label?: string;
}

export interface UnitAttribution extends CommitAttribution {
  unreplayable_calls: number;
  outside_changes: number;
  files_outside_repo: number;
}

/**
 * Replays the successful file edits of one session's checkpoint slice on the
 * unit's base and attributes the commit's added lines (metrics.md §3–4).
 * `transcriptStart` is the 0-based line where the slice begins: calls whose
 * result lies before it belong to earlier checkpoints.
 */
export async function attributeUnit(session: Session, transcriptStart: number, files: UnitFiles, sink: DiagnosticSink): Promise<UnitAttribution> {
  const calls = session.tool_calls
    .filter((c) => c.success === true && c.file_edits.length > 0 && (c.result_record ?? c.record) > transcriptStart)
    .map((c, order) => ({ c, order }))
    .sort((a, b) => (a.c.result_record ?? a.c.record) - (b.c.result_record ?? b.c.record) || a.order - b.order)
    .map(({ c }) => c);

  const mapper = makePathMapper(
    calls.flatMap((c) => c.file_edits.map((e) => e.path)),
    session.cwds,
    files.exists,
  );
  const prefix = files.label ? `${files.label}: ` : "";
  const steps: ReplayStep[] = [];
  const outside = new Set<string>();
  for (const call of calls) {
    for (const edit of call.file_edits) {
      const path = mapper.toRepoPath(edit.path);
      if (path === null) {
        if (!outside.has(edit.path)) {
          outside.add(edit.path);
          sink.info("path-outside-repo", `${prefix}${call.name} edited ${edit.path}, outside the repository${mapper.root ? ` (${mapper.root})` : ""}: ignored`, call.record);
        }
        continue;
      }
      steps.push({ call, edit, path });
    }
  }

  const bases = new Map<string, string | null>();
  for (const path of new Set([...steps.map((s) => s.path), ...files.changed.map((f) => f.path)])) bases.set(path, await files.readBase(path));
  const replay = replayEdits(steps, (path) => bases.get(path) ?? null);
  for (const issue of replay.issues) {
    if (issue.code === "edit-unreplayable") sink.warn(issue.code, prefix + issue.message, issue.record);
    else sink.info(issue.code, prefix + issue.message, issue.record);
  }

  const committed: CommittedFile[] = [];
  for (const file of files.changed) {
    if (file.binary) continue;
    committed.push({ path: file.path, base: bases.get(file.path) ?? null, commit: await files.readCommit(file.path) });
  }
  return {
    ...attributeAtCommit(replay, committed),
    unreplayable_calls: replay.unreplayable,
    outside_changes: replay.outsideChanges,
    files_outside_repo: outside.size,
  };
}
