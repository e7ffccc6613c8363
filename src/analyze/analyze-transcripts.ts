import { statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { dominantModel } from "../effort";
import { type ClaudeCodeTranscriptFiles, readClaudeCodeTranscript, subagentFilesOf } from "../ingest/claude-code";
import { type CodexRolloutFiles, groupCodexRollouts, readCodexRollout, readHead } from "../ingest/codex";
import { detectTranscriptFormat } from "../ingest/detect";
import { readEntireCompactTranscript } from "../ingest/entire-compact";
import { readGeminiSession } from "../ingest/gemini";
import { repositoryName } from "../ingest/git/repo-name";
import { startsLikePrettyPrintedJson } from "../ingest/jsonl";
import { listDir, realPathOf } from "../ingest/list-dir";
import { exclusionDiagnostic } from "./explain-exclusion";
import { withoutRepeatsAcrossFiles } from "./repeats-across-files";
import { type ChangedFile, type GitRepository, openRepository } from "../ingest/git/repo";
import { isOpenCodeStorage, listOpenCodeStorageSessions, type OpenCodeSource, readOpenCodeSession } from "../ingest/opencode";
import { readPiSession } from "../ingest/pi";
import { type Commit, DiagnosticSink, type Session } from "../model";
import { makePathMapper, type PathMapper, resolveSymlinks } from "../replay";
import type { AnalysisRows } from "../tables";
import { attributeUnit } from "./attribute-unit";
import { filesOfTree, NO_FILES, readBlob, type TreeFiles, unitLinks } from "./tree-files";
import { landingCandidates, type UnitLinks } from "./unit-links";
import type { AnalyzeOptions } from "./analyze-entire";
import { toPromptRows, toSessionRow, toToolCallRows } from "./session-rows";
import { toUnitFileRows, toUnitRow } from "./unit-row";

/** How long after a session's last record a commit may still carry its work. */
export const LINK_WINDOW_S = 12 * 3600;

interface SessionLinks {
  session: Session;
  editedPaths: Set<string>;
  commits: Commit[];
  /** Logged paths → repository paths, the root inferred from HEAD and the commits of the session's window. */
  mapper: PathMapper;
  /** Why no commit is linked, when none is and the session edited files. */
  unlinked: string | null;
}

/** One session found on disk, with what its adapter needs to read it. */
export type FoundTranscript =
  | { format: "claude-code"; file: string; files: ClaudeCodeTranscriptFiles }
  | { format: "codex"; file: string; files: CodexRolloutFiles }
  | { format: "gemini"; file: string }
  | { format: "opencode"; file: string; source: OpenCodeSource }
  | { format: "pi"; file: string }
  | { format: "entire-compact"; file: string };

const PROBE_BYTES = 256 * 1024;
const SKIP_DIRS = new Set(["node_modules", ".git"]);

/**
 * Every agent transcript under a path (a folder, searched recursively, or
 * one file), each format recognised by content (detect.ts), never by name:
 * Claude Code transcripts with their `subagents/` files, Codex rollouts
 * grouped with their sub-agent threads, Gemini CLI sessions (document or
 * log), OpenCode exports and OpenCode storage folders, Pi session files.
 * Sorted by path.
 * `.jsonl` files of no known format are reported (info), other files are not.
 */
export function findTranscripts(path: string, sink: DiagnosticSink): FoundTranscript[] {
  const byFormat = { "claude-code": [] as string[], codex: [] as string[], gemini: [] as string[], opencode: [] as string[], pi: [] as string[], "entire-compact": [] as string[] };
  const storage: OpenCodeSource[] = [];
  const subagentDirs: string[] = [];
  // One file reached twice through links is read once.
  const seenFiles = new Map<string, string>();
  const sniff = (file: string, explicit: boolean) => {
    const real = realPathOf(file);
    const first = seenFiles.get(real);
    if (first !== undefined) {
      sink.add("info", "transcript-same-file", `the same file as ${first} (reached through a link): read once`, null, { file });
      return;
    }
    seenFiles.set(real, file);
    const head = readHead(file, PROBE_BYTES) ?? new Uint8Array();
    const format = detectTranscriptFormat(head);
    if (format !== "unknown") byFormat[format].push(file);
    else if (file.endsWith(".jsonl") && startsLikePrettyPrintedJson(head)) {
      sink.add("warning", "jsonl-pretty-printed", "a JSON document spread over several lines, not JSON Lines (one record per line): no transcript format reads it, so it is skipped", null, { file });
    } else if (explicit || file.endsWith(".jsonl")) sink.add("info", "not-a-transcript", "skipped: the content looks like no known transcript format", null, { file });
  };
  const walking = new Set<string>();
  const walk = (dir: string) => {
    if (isOpenCodeStorage(dir)) {
      for (const session of listOpenCodeStorageSessions(dir, sink)) storage.push({ kind: "storage", session });
      return;
    }
    const real = realPathOf(dir);
    walking.add(real);
    for (const entry of listDir(dir, "transcript", sink, walking) ?? []) {
      if (entry.kind === "dir") {
        if (SKIP_DIRS.has(entry.name)) continue;
        if (entry.name === "subagents") subagentDirs.push(entry.path);
        else walk(entry.path);
      } else if (entry.name.endsWith(".jsonl") || entry.name.endsWith(".json")) {
        sniff(entry.path, false);
      } else if (entry.name === "opencode.db" && !isOpenCodeStorage(join(dir, "storage"))) {
        sink.add("info", "opencode-sqlite-not-read", "an OpenCode 1.2+ SQLite session database: not read by this version (only the JSON storage folder and exports are)", null, { file: entry.path });
      }
    }
    walking.delete(real);
  };
  try {
    if (statSync(path).isFile()) sniff(path, true);
    else walk(path);
  } catch (e) {
    sink.error("transcript-path-unreadable", `cannot read ${path}: ${e instanceof Error ? e.message : String(e)}`);
    return [];
  }

  const out: FoundTranscript[] = [];
  const claimed = new Set<string>();
  for (const file of byFormat["claude-code"]) {
    claimed.add(join(dirname(file), basename(file, ".jsonl"), "subagents"));
    out.push({ format: "claude-code", file, files: { file, subagents: subagentFilesOf(file) } });
  }
  for (const dir of subagentDirs.sort()) {
    if (!claimed.has(dir)) sink.add("info", "claude-orphan-subagents", `sub-agent logs in ${dir} have no session transcript next to them; skipped`, null, { file: dir });
  }
  for (const files of groupCodexRollouts(byFormat.codex.sort(), sink)) out.push({ format: "codex", file: files.file, files });
  for (const file of byFormat.gemini) out.push({ format: "gemini", file });
  for (const file of byFormat.opencode) out.push({ format: "opencode", file, source: { kind: "export", file } });
  for (const file of byFormat.pi) out.push({ format: "pi", file });
  for (const file of byFormat["entire-compact"]) out.push({ format: "entire-compact", file });
  for (const source of storage) if (source.kind === "storage") out.push({ format: "opencode", file: source.session.file, source });
  return out.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/** Reads one found transcript with its format's adapter. */
export function readFoundTranscript(found: FoundTranscript, sink: DiagnosticSink): Session | null {
  switch (found.format) {
    case "claude-code":
      return readClaudeCodeTranscript(found.files, sink);
    case "codex":
      return readCodexRollout(found.files, sink);
    case "gemini":
      return readGeminiSession(found.file, sink);
    case "opencode":
      return readOpenCodeSession(found.source, sink);
    case "pi":
      return readPiSession(found.file, sink);
    case "entire-compact":
      return readEntireCompactTranscript(found.file, sink);
  }
}

/**
 * Agent transcripts (Claude Code, Codex, Gemini CLI, OpenCode, Pi: a folder or
 * one file) with, optionally, the repository they edited. Without Entire
 * there is no checkpoint trailer, so a session is linked to each commit that
 * changes a file it edited, committed between its first edit and 12 hours
 * after its last record (copies with one patch id count once). A session
 * linked to several commits (`multi-commit-session`) or a commit linked to
 * several sessions (`multi-session-commit`) is ambiguous. Returns the number
 * of transcripts found.
 */
export async function analyzeTranscripts(path: string, repoPath: string | null, options: AnalyzeOptions, out: AnalysisRows): Promise<number> {
  const sink = new DiagnosticSink("transcripts", path);
  const found = findTranscripts(path, sink);
  out.diagnostics.push(...sink.rows);
  if (found.length === 0) return 0;

  const repo = repoPath ? await openRepository(repoPath, { allowSubdirectory: true }) : null;
  if (repoPath && !repo) {
    const rs = new DiagnosticSink("git", repoPath);
    rs.error("repo-unreadable", `--repo ${repoPath} is not a git repository: sessions are read, no unit is formed`);
    out.diagnostics.push(...rs.rows);
  } else if (!repoPath) {
    const rs = new DiagnosticSink("transcripts", path);
    rs.info("no-repository", "no --repo given: sessions and tool calls are read, no commit is attributed");
    out.diagnostics.push(...rs.rows);
  }
  try {
    const repoName = repo ? await repositoryName(repo, repoPath!) : null;
    const historySink = new DiagnosticSink("git", repoPath);
    const commits = repo
      ? await repo.logCommits({
          patchIds: true,
          onHistoryIncomplete: (message) => historySink.error("git-history-incomplete", `git cannot walk the whole history of --repo (${message}): a commit object is absent from this clone; each branch was read on its own as far as it goes`),
        })
      : [];
    out.diagnostics.push(...historySink.rows);
    const headFiles = repo ? await filesOfTree(repo, repo.gitDir, "HEAD") : NO_FILES;
    const links: SessionLinks[] = [];
    options.onProgress?.(0, found.length, "transcripts");
    // Every session first: a resumed one repeats calls of an earlier file, counted in that file only.
    const read = found.map((f, i) => {
      const ssink = new DiagnosticSink(f.format, f.file);
      const session = readFoundTranscript(f, ssink);
      options.onProgress?.(i + 1, found.length, basename(f.file));
      return { f, ssink, session };
    });
    const parsed = read.filter((r) => r.session !== null);
    const deduped = withoutRepeatsAcrossFiles(parsed.map((r) => r.session!));
    parsed.forEach((r, k) => {
      r.session = deduped.sessions[k];
      const rep = deduped.repeated.get(k);
      if (rep) r.ssink.info("repeated-across-files", `${rep.tool_calls} tool call(s) and ${rep.api_calls} API call(s) are also in ${rep.first_file}, which starts earlier (a resumed session copies its history): counted there only`);
    });
    for (const { ssink, session } of read) {
      if (session) {
        ssink.sessionId = session.session_id;
        for (const d of ssink.rows) d.session_id = session.session_id;
        out.sessions.push(toSessionRow(session, { repo: repoName, idleLimitS: options.idleLimitS }, ssink));
        (out.prompts ??= []).push(...toPromptRows(session));
        const link = repo ? await linkSession(repo, session, commits, headFiles) : null;
        const mapper = link?.mapper ?? makePathMapper(session.tool_calls.flatMap((c) => c.file_edits.map((e) => e.path)), session.cwds, () => false);
        out.tool_calls.push(...toToolCallRows(session, (p) => mapper.toRepoPath(p)));
        if (link) links.push(link);
      }
      out.diagnostics.push(...ssink.rows);
    }
    if (repo && repoName !== null) await attributeLinks(repo, repoName, links, out);
  } finally {
    await repo?.close();
  }
  return found.length;
}

async function linkSession(repo: GitRepository, session: Session, commits: readonly Commit[], headFiles: TreeFiles): Promise<SessionLinks> {
  const edits = session.tool_calls.filter((c) => c.success === true && c.file_edits.length > 0);
  const firstEdit = edits.map((c) => Date.parse(c.timestamp ?? "")).filter(Number.isFinite).sort((a, b) => a - b)[0];
  const last = session.record_times[session.record_times.length - 1];
  const inWindow =
    firstEdit === undefined || last === undefined
      ? []
      : commits
          .filter((c) => c.committer_time * 1000 >= firstEdit && c.committer_time * 1000 <= last + LINK_WINDOW_S * 1000)
          .sort((a, b) => a.committer_time - b.committer_time || (a.sha < b.sha ? -1 : 1));
  // The repository root is inferred from paths that exist: at HEAD, or changed by a commit of the window
  // (a file the session made and a later commit moved or deleted is not at HEAD).
  const changedInWindow = new Set<string>();
  for (const c of inWindow) for (const f of (await changedOf(repo, c.sha)) ?? []) changedInWindow.add(f.path);
  // The symbolic links of each commit of the window (with its parent's): an edit through a link changes the
  // file it names, so a commit that changes only that file is still this session's.
  // Trees are walked only when the repository shows a link at HEAD or in a commit of the window (a big
  // repository without links pays nothing).
  const linksOf = new Map<string, UnitLinks>();
  const anyLink = new Map<string, string>();
  let linksSeen = headFiles.links.size > 0;
  for (const c of inWindow) if (((await changedOf(repo, c.sha)) ?? []).some((f) => f.old_mode === "120000" || f.new_mode === "120000")) linksSeen = true;
  for (const c of linksSeen ? inWindow : []) {
    const links = await unitLinks(repo, c.parents[0] ? await filesOfTree(repo, repo.gitDir, c.parents[0]) : NO_FILES, await filesOfTree(repo, repo.gitDir, c.sha));
    if (links === null) continue;
    linksOf.set(c.sha, links.links);
    for (const [path, target] of [...links.links.base, ...links.links.commit]) if (!anyLink.has(path)) anyLink.set(path, target);
  }
  const known = (p: string) => headFiles.blobs.has(p) || changedInWindow.has(p);
  const exists = (p: string) => {
    if (known(p)) return true;
    const resolved = anyLink.size > 0 ? resolveSymlinks(p, (q) => anyLink.get(q)) : null;
    return resolved !== null && resolved !== p && known(resolved);
  };
  const mapper = makePathMapper(session.tool_calls.flatMap((c) => c.file_edits.map((e) => e.path)), session.cwds, exists, (p) => changedInWindow.has(p));
  const editedPaths = new Set<string>();
  for (const c of edits) {
    for (const e of c.file_edits) {
      const p = mapper.toRepoPath(e.path);
      if (p !== null) editedPaths.add(p);
    }
  }
  const linked: Commit[] = [];
  if (editedPaths.size > 0) {
    const seen = new Set<string>();
    for (const c of inWindow) {
      const key = c.patch_id ?? c.sha;
      if (seen.has(key)) continue;
      const changed = await changedOf(repo, c.sha);
      const links = linksOf.get(c.sha);
      let names: ReadonlySet<string> = editedPaths;
      if (links !== undefined) {
        const landed = new Set<string>();
        for (const p of editedPaths) for (const candidate of landingCandidates(p, links, false)) if (candidate !== null) landed.add(candidate);
        names = landed;
      }
      if (changed?.some((f) => names.has(f.path))) {
        seen.add(key);
        linked.push(c);
      }
    }
  }
  let unlinked: string | null = null;
  if (linked.length === 0 && edits.length > 0) {
    if (commits.length === 0) unlinked = "the repository has no commits: no unit";
    else if (firstEdit === undefined || last === undefined) unlinked = "its edits carry no timestamps, so no commit can be placed after them: no unit";
    else if (editedPaths.size === 0) unlinked = "none of the files it edited is in the repository: no unit";
    else unlinked = "no commit in the time window changes a file this session edited: no unit";
  }
  return { session, editedPaths, commits: linked, mapper, unlinked };
}

async function attributeLinks(repo: GitRepository, repoName: string, links: SessionLinks[], out: AnalysisRows): Promise<void> {
  const sessionsPerCommit = new Map<string, number>();
  for (const l of links) for (const c of l.commits) sessionsPerCommit.set(c.sha, (sessionsPerCommit.get(c.sha) ?? 0) + 1);
  for (const { session, commits, unlinked } of links) {
    const sink = new DiagnosticSink(session.source, session.transcript, session.session_id);
    if (unlinked !== null) sink.info("session-without-commit", unlinked);
    for (const commit of commits) {
      const reasons: string[] = [];
      if (commits.length > 1) reasons.push("multi-commit-session");
      if ((sessionsPerCommit.get(commit.sha) ?? 0) > 1) reasons.push("multi-session-commit");
      if (commit.parents.length > 1) reasons.push("merge-commit");
      const changed = await changedOf(repo, commit.sha);
      if (!changed) reasons.push("commit-unreadable");
      const parent = commit.parents[0] ?? null;
      const identity = {
        session_id: session.session_id,
        commit_sha: commit.sha,
        checkpoint_id: null,
        repo: repoName,
        agent: session.agent,
        model: dominantModel(session.api_calls),
        method: "git-replay" as const,
        ambiguity: reasons[0] ?? null,
        numstat_additions: changed ? changed.filter((f) => !f.binary).reduce((s, f) => s + (f.additions ?? 0), 0) : null,
        entire: null,
      };
      const exclude = () => {
        if (reasons.length === 0) return;
        identity.ambiguity = reasons[0];
        const short = (list: readonly string[]) => `${list.length}: ${list.slice(0, 5).map((x) => x.slice(0, 12)).join(", ")}${list.length > 5 ? ", …" : ""}`;
        sink.rows.push(
          exclusionDiagnostic({ session_id: session.session_id, commit_sha: commit.sha, checkpoint_id: null }, sink.source, {
            reasons,
            details: {
              "multi-commit-session": `commits ${short(commits.map((c) => c.sha))}`,
              "multi-session-commit": `${sessionsPerCommit.get(commit.sha) ?? 0} sessions`,
              "merge-commit": `parents ${short(commit.parents)}`,
            },
          }),
        );
      };
      if (!changed) {
        exclude();
        out.units.push(toUnitRow(identity, null));
        continue;
      }
      const baseFiles = parent ? await filesOfTree(repo, repo.gitDir, parent) : NO_FILES;
      const commitFiles = await filesOfTree(repo, repo.gitDir, commit.sha);
      const links = await unitLinks(repo, baseFiles, commitFiles);
      // A blob this clone lacks (a partial clone), a file's or a symbolic link's: the unit cannot be read whole.
      let missing = links?.missing.slice() ?? [];
      const decode = (b: Uint8Array | null) => (b === null ? null : new TextDecoder("utf-8", { ignoreBOM: true }).decode(b));
      const read = async (tree: TreeFiles, p: string) => {
        const sha = tree.blobs.get(p);
        if (sha === undefined) return null;
        const bytes = await readBlob(repo, sha);
        if (bytes === null) missing.push(p);
        return decode(bytes);
      };
      let counts;
      try {
        counts = await attributeUnit(session, 0, {
          changed: changed.map((f) => ({ path: f.path, binary: f.binary })),
          readBase: (p) => read(baseFiles, p),
          readCommit: (p) => read(commitFiles, p),
          exists: (p) => baseFiles.blobs.has(p) || commitFiles.blobs.has(p),
          ...(links ? { links: links.links } : {}),
          label: `commit ${commit.sha.slice(0, 10)}`,
        }, sink);
      } catch (e) {
        // A bug met on input nobody foresaw must not stop the run or lose the unit quietly.
        sink.error("unit-failed", `commit ${commit.sha.slice(0, 10)}: internal error (${e instanceof Error ? e.message : String(e)}); this unit is left out`);
        continue;
      }
      if (missing.length > 0) {
        missing = [...new Set(missing)];
        reasons.push("commit-unreadable");
        sink.warn("commit-unreadable", `commit ${commit.sha.slice(0, 10)}: ${missing.slice(0, 3).join(", ")}${missing.length > 3 ? ", …" : ""} at the commit or its parent ${missing.length === 1 ? "is" : "are"} missing from this clone (partial clone?); unit kept out of headline numbers`);
      }
      exclude();
      out.units.push(toUnitRow(identity, counts));
      (out.unit_files ??= []).push(...toUnitFileRows(identity, counts));
    }
    out.diagnostics.push(...sink.rows);
  }
}

const changedCache = new WeakMap<GitRepository, Map<string, ChangedFile[] | null>>();
async function changedOf(repo: GitRepository, sha: string): Promise<ChangedFile[] | null> {
  let cache = changedCache.get(repo);
  if (!cache) changedCache.set(repo, (cache = new Map()));
  if (!cache.has(sha)) cache.set(sha, await repo.changedFiles(sha));
  return cache.get(sha) ?? null;
}
