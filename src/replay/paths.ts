/**
 * Maps the paths an agent logged (absolute host paths, or paths relative to
 * its cwd) to paths relative to the repository root. The root on the user's
 * machine is not recorded, and `cwd` can be a subfolder or a worktree
 * (`.worktrees/3`), so the root is inferred: the ancestor of a cwd under which
 * the most edited paths name files that exist in the repository.
 */
export interface PathMapper {
  /** The repo-relative path, or null when the path lies outside the repository. */
  toRepoPath(logged: string): string | null;
  readonly root: string | null;
}

/** A Windows path: a drive letter (`C:\…`, `C:/…`) or a UNC share (`\\host\…`). */
const isWindowsPath = (p: string): boolean => /^[A-Za-z]:[\\/]/.test(p) || p.startsWith("\\\\");

/**
 * An absolute POSIX-style path. On Windows paths a drive letter is dropped (`C:\Users\me` →
 * `/Users/me`) and backslashes separate; on POSIX a backslash is a character of the file name
 * (`back\slash.txt`).
 */
const normalise = (p: string, windows = isWindowsPath(p)): string => {
  const parts: string[] = [];
  const text = windows ? p.replace(/\\/g, "/").replace(/^[A-Za-z]:(?=\/|$)/, "") : p;
  for (const part of text.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return "/" + parts.join("/");
};

const isAbsolute = (p: string) => p.startsWith("/") || isWindowsPath(p);

const ancestors = (dir: string): string[] => {
  const out: string[] = [];
  let current = normalise(dir);
  for (;;) {
    out.push(current);
    if (current === "/") break;
    current = current.slice(0, current.lastIndexOf("/")) || "/";
  }
  return out;
};

const relativeTo = (root: string, path: string): string | null => {
  if (root === "/") return path.slice(1) || null;
  if (path === root || !path.startsWith(root + "/")) return null;
  return path.slice(root.length + 1);
};

function absolutePath(logged: string, cwd: string | null, windowsCwd = false): string | null {
  if (isAbsolute(logged)) return normalise(logged);
  // A relative path takes its separators from the session's platform.
  return cwd ? normalise(cwd + "/" + logged, windowsCwd) : null;
}

function deeperFirst(a: string, b: string): number {
  return b.length - a.length || (a < b ? -1 : 1);
}

export function makePathMapper(
  loggedPaths: readonly string[],
  cwds: readonly string[],
  existsInRepo: (repoPath: string) => boolean,
  /**
   * Breaks a tie between roots: paths this says are likelier (the files the unit's commit changes).
   * A session started in a monorepo package edits `package.json` or `README.md`, which exist at the
   * repository root too: the package folder and the root then score the same on existence alone.
   */
  preferred?: (repoPath: string) => boolean,
): PathMapper {
  const cwd = cwds.length > 0 ? normalise(cwds[0]) : null;
  const windowsCwd = cwds.length > 0 && isWindowsPath(cwds[0]);
  // A session logs the same few paths many times: normalise each once.
  const unique = new Set<string>();
  for (const logged of loggedPaths) unique.add(logged);
  const absolutes = new Set<string>();
  for (const logged of unique) {
    const abs = absolutePath(logged, cwd, windowsCwd);
    if (abs !== null) absolutes.add(abs);
  }
  const paths = Array.from(absolutes);

  const candidates = new Set<string>();
  for (const dir of cwds) for (const a of ancestors(dir)) candidates.add(a);
  if (candidates.size === 0)
    for (const p of paths) for (const a of ancestors(p.slice(0, p.lastIndexOf("/")) || "/")) candidates.add(a);

  let root: string | null = null;
  let best = 0;
  let bestPreferred = 0;
  // Deeper candidates first, so a tie (on both counts) keeps the most specific root.
  for (const candidate of Array.from(candidates).sort(deeperFirst)) {
    let score = 0;
    let preferredScore = 0;
    for (const p of paths) {
      const rel = relativeTo(candidate, p);
      if (rel !== null && existsInRepo(rel)) {
        score++;
        if (preferred?.(rel)) preferredScore++;
      }
    }
    if (score > best || (score === best && score > 0 && preferredScore > bestPreferred)) {
      best = score;
      bestPreferred = preferredScore;
      root = candidate;
    }
  }
  // Nothing the agent touched exists in the repository (e.g. all new files):
  // the best guess is the session's first working directory.
  if (root === null) root = cwd;

  const mapped = new Map<string, string | null>();
  return {
    root,
    toRepoPath(logged: string): string | null {
      let rel = mapped.get(logged);
      if (rel === undefined) {
        const abs = absolutePath(logged, cwd, windowsCwd);
        rel = abs === null || root === null ? null : relativeTo(root, abs);
        mapped.set(logged, rel);
      }
      return rel;
    },
  };
}

/** Symbolic links followed at most this many times in one path (as Linux's MAXSYMLINKS). */
const MAX_LINK_HOPS = 40;

/**
 * The repo-relative path a write to `path` lands on when the repository holds
 * symbolic links (git mode 120000): `CLAUDE.md → AGENTS.md`, or a folder link
 * `.claude/skills → ../.agents/skills`. Resolved as the kernel does, one
 * component at a time: a link's target is read relative to the folder holding
 * the link, and a `..` after a link climbs from where the link led.
 * `linkTarget` gives a link's stored target text, or undefined for a path that
 * is not a link. `keepLast`: the last component is not followed (removing or
 * renaming a link acts on the link itself). Null: the chain leaves the
 * repository (an absolute or empty target, `..` above the root) or loops.
 */
export function resolveSymlinks(
  path: string,
  linkTarget: (repoPath: string) => string | undefined,
  keepLast = false,
): string | null {
  const resolved: string[] = [];
  const pending = path.split("/").reverse();
  let hops = 0;
  while (pending.length > 0) {
    const part = pending.pop() as string;
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (resolved.length === 0) return null;
      resolved.pop();
      continue;
    }
    resolved.push(part);
    if (keepLast && pending.every((p) => p === "" || p === ".")) break;
    const target = linkTarget(resolved.join("/"));
    if (target === undefined) continue;
    if (++hops > MAX_LINK_HOPS || target === "" || target.startsWith("/")) return null;
    resolved.pop();
    const parts = target.split("/");
    for (let k = parts.length - 1; k >= 0; k--) pending.push(parts[k]);
  }
  return resolved.length === 0 ? null : resolved.join("/");
}
