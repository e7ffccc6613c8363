import { attributeUnit, callsInSlice, type UnitAttribution } from "./replay-unit";
import type { DiagnosticSink, Session } from "../model";
import { applyUnifiedDiff, makePathMapper } from "../replay";

/** One file of a commit given as a unified diff (SWE-chat `commits.patch`, `git show` output split per file). */
export interface FilePatch {
  path: string;
  /** The unified diff of the file (hunks), or null for a binary file. */
  patch: string | null;
}

/**
 * Attribution with method `pre-image-replay` (metrics.md §4): no repository,
 * so each file's base is the log's first pre-image of it (empty for a
 * created file) and its committed content is that base with the commit's
 * patch applied. A changed file the agent never touched has no known base:
 * its added lines are counted from the patch, all human.
 */
export async function attributeFromPreImages(
  session: Session,
  transcriptStart: number,
  patches: readonly FilePatch[],
  sink: DiagnosticSink,
): Promise<UnitAttribution & { unknown_base_files: number }> {
  const { firstPre, patchPaths } = firstPreImages(session, transcriptStart, patches);
  const committed = new Map<string, string | null>();
  let unknownBase = 0;
  let patchOnlyHuman = 0;
  const changed: { path: string; binary: boolean }[] = [];
  for (const { path, patch } of patches) {
    if (patch === null) continue;
    const base = firstPre.get(path);
    if (base === undefined) {
      unknownBase++;
      patchOnlyHuman += addedLineCount(patch);
      continue;
    }
    const applied = applyUnifiedDiff(base, patch);
    if (!applied.ok) {
      sink.warn(
        "commit-patch-unappliable",
        `the commit's patch of ${path} does not apply to the log's first pre-image (${applied.reason}); file left out`,
      );
      unknownBase++;
      continue;
    }
    committed.set(path, applied.text);
    changed.push({ path, binary: false });
  }
  const result = await attributeUnit(
    session,
    transcriptStart,
    {
      changed,
      readBase: async (p) => firstPre.get(p) ?? null,
      readCommit: async (p) => committed.get(p) ?? null,
      exists: (p) => patchPaths.has(p) || firstPre.has(p),
    },
    sink,
  );
  return {
    ...result,
    human_lines: result.human_lines + patchOnlyHuman,
    total_committed_lines: result.total_committed_lines + patchOnlyHuman,
    unknown_base_files: unknownBase,
  };
}

/** Each file's first logged pre-image in the slice (in the order of results), by repo-relative path. */
function firstPreImages(
  session: Session,
  transcriptStart: number,
  patches: readonly FilePatch[],
): { firstPre: Map<string, string>; patchPaths: Set<string> } {
  const patchPaths = new Set<string>();
  for (const p of patches) patchPaths.add(p.path);
  const calls = callsInSlice(session, transcriptStart);
  const logged: string[] = [];
  for (const call of calls) for (const edit of call.file_edits) logged.push(edit.path);
  const mapper = makePathMapper(logged, session.cwds, (p) => patchPaths.has(p));
  const firstPre = new Map<string, string>();
  for (const call of calls) {
    for (const edit of call.file_edits) {
      const path = mapper.toRepoPath(edit.path);
      if (path === null || firstPre.has(path)) continue;
      if (edit.pre_image !== null) firstPre.set(path, edit.pre_image);
    }
  }
  return { firstPre, patchPaths };
}

/** Lines a unified diff adds (`+` lines, not the `+++` header). */
function addedLineCount(patch: string): number {
  let n = 0;
  let at = 0;
  while (at < patch.length) {
    let end = patch.indexOf("\n", at);
    if (end === -1) end = patch.length;
    if (patch.charCodeAt(at) === 43 && !patch.startsWith("+++", at)) n++;
    at = end + 1;
  }
  return n;
}
