/**
 * Where an agent's edit of a path lands when the repository holds symbolic
 * links (git mode 120000). A file tool that opens `CLAUDE.md → AGENTS.md`
 * writes `AGENTS.md`; but some Claude Code versions replace the link with a
 * file of its own (a write to a temporary file, then a rename), a link can be
 * retargeted during the session, and Git for Windows without symlink support
 * checks a link out as a small text file holding the target's name. The
 * commit's tree and the edit's own pre-image tell these apart.
 */
import { resolveSymlinks } from "../replay";

/** The symbolic links of a unit's two trees. */
export interface UnitLinks {
  /** Stored target text of each link of the base tree (first parent). */
  base: ReadonlyMap<string, string>;
  /** Stored target text of each link of the commit tree. */
  commit: ReadonlyMap<string, string>;
  /** Whether the commit tree holds this path as a file or a folder of its own (so not as a link). */
  inCommit(path: string): boolean;
}

/** A path's link as the commit has it; the base's only where the commit holds nothing at that path (a link it removed). */
export function commitViewOfLinks(links: UnitLinks): (path: string) => string | undefined {
  return (path) => {
    const target = links.commit.get(path);
    if (target !== undefined) return target;
    return links.inCommit(path) ? undefined : links.base.get(path);
  };
}

/**
 * The paths an edit of `path` may have changed: through the links as the commit has them, through the base's
 * links, and `path` itself (a link replaced by a file, or a link's text edited as a file). Nulls (a chain that
 * leaves the repository) stay in place so the caller can tell them apart.
 */
export function landingCandidates(path: string, links: UnitLinks, keepLast: boolean): (string | null)[] {
  const out: (string | null)[] = [];
  for (const candidate of [resolveSymlinks(path, commitViewOfLinks(links), keepLast), resolveSymlinks(path, (p) => links.base.get(p), keepLast), path]) {
    if (!out.includes(candidate)) out.push(candidate);
  }
  return out;
}

/**
 * Where the edits of `path` land. When the commit holds `path` as a file of its own (the first candidate is
 * `path`), there: the link was replaced (some Claude Code versions write a temporary file and rename it over
 * the link). Otherwise the first candidate whose text at the base equals the first pre-image the log gives
 * for `path` (the file the tool really read: a link retargeted during the session, or a link checked out as
 * a text file by Git for Windows), else the commit's view of the links.
 */
export function chooseLanding(path: string, candidates: readonly (string | null)[], firstPreImage: string | null, baseText: (path: string) => string | null | undefined): string | null {
  if (candidates[0] === path || firstPreImage === null) return candidates[0];
  for (const candidate of candidates) {
    if (candidate !== null && baseText(candidate) === firstPreImage) return candidate;
  }
  return candidates[0];
}
