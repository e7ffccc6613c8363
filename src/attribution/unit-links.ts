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
  for (const candidate of [
    resolveSymlinks(path, commitViewOfLinks(links), keepLast),
    resolveSymlinks(path, (p) => links.base.get(p), keepLast),
    path,
  ]) {
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
export function chooseLanding(
  path: string,
  candidates: readonly (string | null)[],
  firstPreImage: string | null,
  baseText: (path: string) => string | null | undefined,
): string | null {
  if (candidates[0] === path || firstPreImage === null) return candidates[0];
  // A tool on a CRLF checkout (Git for Windows) reads CRLF text where git stores LF.
  const pre = withoutCarriageReturns(firstPreImage);
  for (const candidate of candidates) {
    const text = candidate !== null ? baseText(candidate) : null;
    if (typeof text === "string" && withoutCarriageReturns(text) === pre) return candidate;
  }
  return candidates[0];
}

const withoutCarriageReturns = (text: string): string => (text.includes("\r\n") ? text.replace(/\r\n/g, "\n") : text);

/** Whether `path` is itself a symbolic link in either tree (not only a path through one). */
export function isLinkItself(path: string, links: UnitLinks): boolean {
  return commitViewOfLinks(links)(path) !== undefined || links.base.has(path);
}

/**
 * Whether a git link blob's text can be a link's target. Git for Windows without symlink support checks a
 * link out as a text file; once edited, the blob (still mode 120000) holds text such as "// rules\nx\n",
 * which no file system stores as a target: that path is a file.
 */
export function isPlausibleLinkTarget(text: string): boolean {
  return text !== "" && !text.includes("\n") && !text.includes("\0") && text.length <= 4096;
}
