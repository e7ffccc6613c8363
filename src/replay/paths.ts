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

/** An absolute POSIX-style path; a Windows drive letter is dropped (`C:\Users\me` → `/Users/me`), as in `absolutePath`. */
const normalise = (p: string): string => {
  const parts: string[] = [];
  for (const part of p.replace(/\\/g, "/").replace(/^[A-Za-z]:(?=\/|$)/, "").split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return "/" + parts.join("/");
};

const isAbsolute = (p: string) => p.startsWith("/") || /^[A-Za-z]:[\\/]/.test(p);

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

function absolutePath(logged: string, cwd: string | null): string | null {
  if (isAbsolute(logged)) return normalise(logged.replace(/^[A-Za-z]:/, ""));
  return cwd ? normalise(cwd + "/" + logged) : null;
}

function deeperFirst(a: string, b: string): number {
  return b.length - a.length || (a < b ? -1 : 1);
}

export function makePathMapper(
  loggedPaths: readonly string[],
  cwds: readonly string[],
  existsInRepo: (repoPath: string) => boolean,
): PathMapper {
  const cwd = cwds.length > 0 ? normalise(cwds[0]) : null;
  // A session logs the same few paths many times: normalise each once.
  const unique = new Set<string>();
  for (const logged of loggedPaths) unique.add(logged);
  const absolutes = new Set<string>();
  for (const logged of unique) {
    const abs = absolutePath(logged, cwd);
    if (abs !== null) absolutes.add(abs);
  }
  const paths = Array.from(absolutes);

  const candidates = new Set<string>();
  for (const dir of cwds) for (const a of ancestors(dir)) candidates.add(a);
  if (candidates.size === 0) for (const p of paths) for (const a of ancestors(p.slice(0, p.lastIndexOf("/")) || "/")) candidates.add(a);

  let root: string | null = null;
  let best = 0;
  // Deeper candidates first, so a tie keeps the most specific root.
  for (const candidate of Array.from(candidates).sort(deeperFirst)) {
    let score = 0;
    for (const p of paths) {
      const rel = relativeTo(candidate, p);
      if (rel !== null && existsInRepo(rel)) score++;
    }
    if (score > best) {
      best = score;
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
        const abs = absolutePath(logged, cwd);
        rel = abs === null || root === null ? null : relativeTo(root, abs);
        mapped.set(logged, rel);
      }
      return rel;
    },
  };
}
