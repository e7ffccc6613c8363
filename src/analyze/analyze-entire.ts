import { basename } from "node:path";
import { addAmbiguity, type CandidateUnit, linkUnits, readEntireRepository, type EntireRepository } from "../ingest/entire";
import { gitText } from "../ingest/git/exec";
import { dominantModel, sumUsage } from "../effort";
import { type CheckpointSession, type CheckpointSessionRow, DiagnosticSink, type Session } from "../model";
import { makePathMapper } from "../replay";
import type { AnalysisRows } from "../tables";
import { attributeUnit } from "./attribute-unit";
import { readTranscriptByContent } from "./read-transcript";
import { toSessionRow, toToolCallRows } from "./session-rows";
import { toUnitRow } from "./unit-row";

export interface AnalyzeOptions {
  idleLimitS: number;
  onProgress?: (done: number, total: number, label: string) => void;
}

const decoder = new TextDecoder();
const text = (bytes: Uint8Array | null): string | null => (bytes === null ? null : decoder.decode(bytes));

/** `owner/name` from the origin remote, else the folder name. */
export async function repositoryName(entire: EntireRepository, path: string): Promise<string> {
  const url = (await gitText(entire.repo.gitDir, ["config", "--get", "remote.origin.url"]))?.trim();
  const match = url?.match(/[:/]([^/:]+\/[^/]+?)(?:\.git)?\/?$/);
  if (match) return match[1];
  return basename(entire.repo.workTree ?? path).replace(/\.git$/, "");
}

/**
 * The whole job on one git repository with Entire checkpoints: units from
 * trailers and checkpoints, one transcript per (checkpoint, session) read by
 * content, replay and attribution per unit against git's file states
 * (method `git-replay`), session and tool-call rows from each session's
 * longest transcript. Returns false when the path is not such a repository.
 */
export async function analyzeEntireRepository(path: string, options: AnalyzeOptions, out: AnalysisRows): Promise<boolean> {
  const sink = new DiagnosticSink("entire", path);
  const entire = await readEntireRepository(path, sink);
  if (entire === null) return false;
  try {
    const repo = await repositoryName(entire, path);
    const units = linkUnits(entire.checkpoints, entire.commits, sink);
    out.diagnostics.push(...sink.rows);

    // Group session folders and units by session, so each session's transcripts are parsed once and released.
    const folders = new Map<string, { checkpoint_id: string; session: CheckpointSession }[]>();
    for (const cp of entire.checkpoints) {
      for (const s of cp.sessions) {
        let list = folders.get(s.session_id);
        if (!list) folders.set(s.session_id, (list = []));
        list.push({ checkpoint_id: cp.checkpoint_id, session: s });
      }
    }
    const unitsBySession = new Map<string, CandidateUnit[]>();
    for (const u of units) {
      let list = unitsBySession.get(u.session_id);
      if (!list) unitsBySession.set(u.session_id, (list = []));
      list.push(u);
    }
    const sessionIds = [...folders.keys()].sort();
    const headTree = await treeSet(entire, "HEAD");
    options.onProgress?.(0, sessionIds.length, "sessions");

    for (const [done, sessionId] of sessionIds.entries()) {
      const ssink = new DiagnosticSink("entire", null, sessionId);
      const parsed = new Map<string, Session | null>();
      const parse = async (checkpointId: string, cs: CheckpointSession): Promise<{ session: Session | null; reason: "transcript-missing" | "transcript-unreadable" | null }> => {
        const key = `${checkpointId}/${cs.index}`;
        if (parsed.has(key)) {
          const session = parsed.get(key) ?? null;
          return { session, reason: session ? null : "transcript-unreadable" };
        }
        const file = `${checkpointId.slice(0, 2)}/${checkpointId.slice(2)}/${cs.index}/${cs.transcript_path?.split("/").pop() ?? "full.jsonl"}`;
        const bytes = cs.transcript_path === null ? null : await entire.readTranscript(checkpointId, cs.index);
        if (bytes === null) {
          (out.checkpoint_sessions ??= []).push(checkpointSessionRow(checkpointId, cs, null));
          ssink.warn("transcript-missing", `checkpoint ${checkpointId} session ${cs.index}: no transcript stored (absent or its blob is missing from this clone)`);
          parsed.set(key, null);
          return { session: null, reason: "transcript-missing" };
        }
        ssink.file = file;
        const outcome = readTranscriptByContent(bytes, file, cs.agent_label, ssink);
        ssink.file = null;
        if (!outcome.ok) ssink.error("transcript-unreadable", outcome.message);
        const session = outcome.ok ? { ...outcome.session, session_id: sessionId } : null;
        parsed.set(key, session);
        (out.checkpoint_sessions ??= []).push(checkpointSessionRow(checkpointId, cs, session));
        return { session, reason: session ? null : "transcript-unreadable" };
      };

      for (const unit of (unitsBySession.get(sessionId) ?? []).sort(byCommitThenCheckpoint)) {
        const { session, reason } = await parse(unit.checkpoint_id, unit.session);
        if (reason) addAmbiguity(unit, reason);
        const identity = {
          session_id: sessionId,
          commit_sha: unit.commit_sha,
          checkpoint_id: unit.checkpoint_id,
          repo,
          agent: session?.agent ?? unit.session.agent_label,
          model: session ? dominantModel(session.api_calls.filter((c) => c.record > unit.session.transcript_start)) ?? dominantModel(session.api_calls) : unit.session.model,
          method: "git-replay" as const,
          ambiguity: unit.ambiguity,
          numstat_additions: null as number | null,
          entire: unit.session.initial_attribution,
        };
        const changed = await entire.repo.changedFiles(unit.commit_sha);
        const parent = unit.commit.parents[0] ?? null;
        if (changed === null) {
          addAmbiguity(unit, "commit-unreadable");
          ssink.warn("commit-unreadable", `commit ${unit.commit_sha} cannot be read (shallow or partial clone?)`);
        }
        identity.ambiguity = unit.ambiguity;
        identity.numstat_additions = changed ? changed.filter((f) => !f.binary).reduce((s, f) => s + (f.additions ?? 0), 0) : null;
        if (!session || !changed) {
          out.units.push(toUnitRow(identity, null));
          continue;
        }
        const baseTree = parent ? await treeSet(entire, parent) : new Set<string>();
        const commitTree = await treeSet(entire, unit.commit_sha);
        let unreadable = false;
        const read = async (rev: string | null, p: string) => {
          if (rev === null) return null;
          const bytes = await entire.repo.readFile(rev, p);
          if (bytes === null && (rev === parent ? baseTree : commitTree).has(p)) unreadable = true;
          return text(bytes);
        };
        const counts = await attributeUnit(session, unit.session.transcript_start, {
          changed: changed.map((f) => ({ path: f.path, binary: f.binary })),
          readBase: (p) => read(parent, p),
          readCommit: (p) => read(unit.commit_sha, p),
          exists: (p) => baseTree.has(p) || commitTree.has(p),
          label: `commit ${unit.commit_sha.slice(0, 10)}`,
        }, ssink);
        if (unreadable) {
          addAmbiguity(unit, "commit-unreadable");
          identity.ambiguity = unit.ambiguity;
          ssink.warn("commit-unreadable", `a file of commit ${unit.commit_sha} or its parent is missing from this clone; unit kept out of headline numbers`);
        }
        out.units.push(toUnitRow(identity, counts));
      }

      // The session row comes from the longest stored copy of its transcript (each checkpoint stores the session so far).
      let longest: Session | null = null;
      for (const { checkpoint_id, session: cs } of folders.get(sessionId) ?? []) {
        const { session } = await parse(checkpoint_id, cs);
        if (session && (!longest || session.record_count > longest.record_count)) longest = session;
      }
      if (longest) {
        out.sessions.push(toSessionRow(longest, { repo, idleLimitS: options.idleLimitS }, ssink));
        const mapper = makePathMapper(longest.tool_calls.flatMap((c) => c.file_edits.map((e) => e.path)), longest.cwds, (p) => headTree.has(p));
        out.tool_calls.push(...toToolCallRows(longest, (p) => mapper.toRepoPath(p)));
      }
      out.diagnostics.push(...ssink.rows);
      options.onProgress?.(done + 1, sessionIds.length, sessionId);
    }
    out.checkpoint_sessions?.sort((a, b) => (a.checkpoint_id < b.checkpoint_id ? -1 : a.checkpoint_id > b.checkpoint_id ? 1 : a.session_index - b.session_index));
  } finally {
    await entire.close();
  }
  return true;
}

/** Entire's recorded numbers beside our token counts over the same slice (main transcript only, as Entire counts). */
function checkpointSessionRow(checkpointId: string, cs: CheckpointSession, session: Session | null): CheckpointSessionRow {
  const slice = session ? sumUsage(session.api_calls.filter((c) => !c.sidechain && c.record > cs.transcript_start)) : null;
  return {
    checkpoint_id: checkpointId,
    session_index: cs.index,
    session_id: cs.session_id,
    agent_label: cs.agent_label,
    agent: session?.agent ?? null,
    transcript_start: cs.transcript_start,
    slice_input_tokens: slice?.input_tokens ?? null,
    slice_output_tokens: slice?.output_tokens ?? null,
    slice_cache_creation_tokens: slice?.cache_creation_tokens ?? null,
    slice_cache_read_tokens: slice?.cache_read_tokens ?? null,
    slice_api_calls: slice?.api_calls ?? null,
    entire_input_tokens: cs.token_usage?.input_tokens ?? null,
    entire_output_tokens: cs.token_usage?.output_tokens ?? null,
    entire_cache_creation_tokens: cs.token_usage?.cache_creation_tokens ?? null,
    entire_cache_read_tokens: cs.token_usage?.cache_read_tokens ?? null,
    entire_api_calls: cs.token_usage?.api_call_count ?? null,
    entire_agent_lines: cs.initial_attribution?.agent_lines ?? null,
    entire_total_committed: cs.initial_attribution?.total_committed ?? null,
    entire_agent_percentage: cs.initial_attribution?.agent_percentage ?? null,
  };
}

function byCommitThenCheckpoint(a: CandidateUnit, b: CandidateUnit): number {
  return a.commit.committer_time - b.commit.committer_time || (a.checkpoint_id < b.checkpoint_id ? -1 : a.checkpoint_id > b.checkpoint_id ? 1 : 0);
}

const trees = new WeakMap<EntireRepository, Map<string, Set<string>>>();
async function treeSet(entire: EntireRepository, rev: string): Promise<Set<string>> {
  let cache = trees.get(entire);
  if (!cache) trees.set(entire, (cache = new Map()));
  let set = cache.get(rev);
  if (!set) {
    const entries = await entire.repo.listTree(rev);
    set = new Set((entries ?? []).filter((e) => e.type === "blob").map((e) => e.path));
    if (cache.size > 64) cache.clear();
    cache.set(rev, set);
  }
  return set;
}
