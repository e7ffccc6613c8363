/**
 * Groups (metrics.md §1b) without Entire, read from the text alone: transcripts plus the repository they
 * edited. A session is linked to each commit that changes a file it edited, made between its first edit and
 * 12 hours after its last record (copies, one `git patch-id --stable`, count once: the earliest); a group is a
 * connected component of sessions and the commits so linked. A commit's moment is its committer date (ties:
 * sha); the calls that precede a commit are those whose result is earlier than its moment. The joint replay
 * and the rows are groups.ts's (`rowsOfGroup`), with no checkpoint and no Entire numbers.
 *
 * Where the text is silent (the same choices as groups.ts where they apply):
 * - the linking rule is the product's documented one (docs/method.md); "first edit" is the earliest
 *   tool_use time of a successful file-changing call, "last record" the latest record time; paths map to the
 *   repository through the files at HEAD and those the window's commits change;
 * - a call whose result has no time takes the time of the call before it in its session (as in the ordering
 *   of groups.ts), so it precedes the commit its predecessor precedes; the session's first call without a
 *   time precedes the first commit;
 * - the session id is the transcript's own (`sessionId` of its records; Codex `session_meta.payload.id`),
 *   else the file name without `.jsonl`.
 */
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { changedFiles, clearBlobCache, logAllCommits, lsTree, patchId } from "./git";
import { blobTree, type GroupCommit, type GroupRow, type Member, rowsOfGroup } from "./groups";
import { makePathMapper } from "./replay";
import { sessionEffort } from "./effort";
import { AGENT_NAMES } from "./sessions";
import { type ParsedTranscript, parseLines, parseTranscript } from "./transcripts";

const WINDOW_MS = 12 * 3600 * 1000;

interface Transcript {
  sessionId: string;
  text: string;
  parsed: ParsedTranscript;
  /** Earliest and latest record times (ms). */
  first: number;
  last: number;
}

const ms = (t: string | null | undefined): number => (t ? Date.parse(t) : Number.NaN);

function readTranscript(file: string): Transcript | null {
  const text = readFileSync(file, "utf8");
  const parsed = parseTranscript(text);
  if (parsed.format === "unknown") return null;
  let sessionId: string | null = null;
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const r of parseLines(text).records) {
    if (!r) continue;
    const payload = r.payload as Record<string, unknown> | undefined;
    sessionId ??=
      typeof r.sessionId === "string"
        ? r.sessionId
        : r.type === "session_meta" && typeof payload?.id === "string"
          ? payload.id
          : null;
    const t = ms(typeof r.timestamp === "string" ? r.timestamp : null);
    if (Number.isFinite(t)) {
      first = Math.min(first, t);
      last = Math.max(last, t);
    }
  }
  return { sessionId: sessionId ?? basename(file).replace(/\.jsonl$/, ""), text, parsed, first, last };
}

/** Every group of the transcripts `files` against `repo`; rows sorted by (group_id, session_id). */
export function runReferenceTranscriptGroups(repo: string, files: readonly string[]): GroupRow[] {
  clearBlobCache();
  const commits = logAllCommits(repo).sort((a, b) => a.committerTime - b.committerTime || (a.sha < b.sha ? -1 : 1));
  const head = new Set(
    lsTree(repo, "HEAD")
      .filter((e) => e.type === "blob")
      .map((e) => e.path),
  );
  const changed = new Map<string, string[]>();
  const changedOf = (c: (typeof commits)[number]) => {
    if (!changed.has(c.sha))
      changed.set(
        c.sha,
        (changedFiles(repo, c.sha, c.parents[0] ?? null) ?? []).map((f) => f.path),
      );
    return changed.get(c.sha)!;
  };
  const transcripts = files.map(readTranscript).filter((t): t is Transcript => t !== null);
  // §1's rule without Entire: each session's linked commits.
  const links = transcripts.map((t) => {
    const starts = t.parsed.calls.map((c) => ms(c.callTime ?? c.resultTime)).filter(Number.isFinite);
    if (starts.length === 0 || !Number.isFinite(t.last)) return [];
    const firstEdit = Math.min(...starts);
    const inWindow = commits.filter(
      (c) => c.committerTime * 1000 >= firstEdit && c.committerTime * 1000 <= t.last + WINDOW_MS,
    );
    const known = new Set([...head, ...inWindow.flatMap(changedOf)]);
    const map = makePathMapper(t.parsed.calls, t.parsed.cwds, known);
    const edited = new Set(t.parsed.calls.map(map).filter((p): p is string => p !== null));
    const seen = new Set<string>();
    const linked: typeof commits = [];
    for (const c of inWindow) {
      const key = patchId(repo, c.sha, c.parents) ?? c.sha;
      if (seen.has(key) || !changedOf(c).some((p) => edited.has(p))) continue;
      seen.add(key);
      linked.push(c);
    }
    return linked;
  });
  // Connected components of sessions and commits.
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    if (!parent.has(x)) parent.set(x, x);
    while (parent.get(x) !== x) x = parent.get(x)!;
    return x;
  };
  links.forEach((list, i) => {
    for (const c of list) parent.set(find(`s${i}`), find(c.sha));
  });
  type Group = { sessions: number[]; commits: Map<string, (typeof commits)[number]> };
  const groups = new Map<string, Group>();
  links.forEach((list, i) => {
    if (list.length === 0) return;
    const root = find(`s${i}`);
    const g: Group = groups.get(root) ?? { sessions: [], commits: new Map() };
    g.sessions.push(i);
    for (const c of list) g.commits.set(c.sha, c);
    groups.set(root, g);
  });
  const rows: GroupRow[] = [];
  for (const g of groups.values()) {
    const ordered: GroupCommit[] = [...g.commits.values()]
      .map((c) => ({
        commit: { sha: c.sha, parents: c.parents, copies: [] },
        committerTime: c.committerTime * 1000,
        moment: c.committerTime * 1000,
      }))
      .sort((a, b) => a.moment - b.moment || (a.commit.sha < b.commit.sha ? -1 : 1));
    rows.push(
      ...groupOf(
        repo,
        ordered,
        g.sessions.map((i) => transcripts[i]),
      ),
    );
  }
  clearBlobCache();
  return rows.sort((a, b) => (`${a.group_id}${a.session_id}` < `${b.group_id}${b.session_id}` ? -1 : 1));
}

function groupOf(repo: string, commits: GroupCommit[], sessions: Transcript[]): GroupRow[] {
  const treeOf = (sha: string | null) => blobTree(repo, sha);
  const baseTree = treeOf(commits[0].commit.parents[0] ?? null);
  const known = new Set<string>(baseTree.keys());
  for (const c of commits) for (const p of treeOf(c.commit.sha).keys()) known.add(p);
  const members: Member[] = [...sessions]
    .sort((a, b) => (a.sessionId < b.sessionId ? -1 : 1))
    .map((t) => {
      const map = makePathMapper(t.parsed.calls, t.parsed.cwds, known);
      let at = Number.NEGATIVE_INFINITY;
      const calls = t.parsed.calls.map((change) => {
        const time = ms(change.resultTime ?? change.callTime);
        if (Number.isFinite(time)) at = time;
        const k = commits.findIndex((c) => at < c.moment);
        const moved = change.movePath ? map({ ...change, path: change.movePath, movePath: null }) : null;
        return { change, firstCommit: k === -1 ? commits.length : k, mapped: change.path ? map(change) : null, moved };
      });
      const format = t.parsed.format as Exclude<ParsedTranscript["format"], "unknown">;
      return {
        sessionId: t.sessionId,
        recordedId: t.sessionId,
        folders: [],
        calls,
        problem: null,
        started: t.first,
        agent: AGENT_NAMES[format],
        model: sessionEffort(t.text, format).model,
      };
    });
  const none = { entire_agent_lines: null, entire_total_committed: null, entire_agent_percentage: null };
  return rowsOfGroup(repo, commits, members, baseTree, null, () => none);
}
