/**
 * The reference implementation of metrics.md §1–4 for git repositories with Entire checkpoints:
 * an independent second reading of the spec, to compare with `swe-chat-eval analyze`.
 *
 * It imports nothing from src/ingest, src/replay, src/attribution or src/analyze on purpose: a copy
 * of the product's logic would copy its bugs.
 */
import { type Checkpoint, type SessionFolder, linkCommits, planUnits, readCheckpoints } from "./checkpoints";
import { clearBlobCache, gitRaw, lsTree, numstatAdditions, readBlob } from "./git";
import { type LineDiffMode, setLineDiffMode } from "./lines";
import { type FileNumbers, type UnitNumbers, computeUnit } from "./replay";
import { type ParsedTranscript, parseTranscript } from "./transcripts";
import { sessionEffort } from "./effort";
import { AGENT_NAMES, runReferenceSessions } from "./sessions";
import { type EntireColumns, entireColumns } from "./entire-attribution";
import { geminiPrefixLength } from "./gemini";

export const NUMBER_COLUMNS = [
  "agent_lines_produced",
  "agent_lines_final",
  "agent_lines_survived",
  "human_lines",
  "outside_lines",
  "total_committed_lines",
  "unreplayable_calls",
  "outside_changes",
] as const satisfies readonly (keyof UnitNumbers)[];

/** §4's derived columns: git's own count, the three rates (full doubles) and the coding mode. */
export const DERIVED_COLUMNS = [
  "numstat_additions",
  "code_survival_rate",
  "coding_efficiency",
  "agent_authored_pct",
  "coding_mode",
] as const;

export interface DerivedColumns {
  numstat_additions: number | null;
  code_survival_rate: number | null;
  coding_efficiency: number | null;
  agent_authored_pct: number | null;
  coding_mode: "human-only" | "vibe" | "collaborative" | null;
}

/** `100 · a / b`, null when the denominator is 0 (or unknown). */
function pct(a: number | null, b: number | null): number | null {
  return a === null || b === null || b === 0 ? null : (100 * a) / b;
}

/** metrics.md §4: the rates from the counts, and SWE-chat's coding mode from `agent_authored_pct`. */
export function deriveRates(n: { [K in keyof UnitNumbers]: number | null }): Omit<DerivedColumns, "numstat_additions"> {
  const authored = pct(n.agent_lines_survived, n.total_committed_lines);
  return {
    code_survival_rate: pct(n.agent_lines_survived, n.agent_lines_final),
    coding_efficiency: pct(n.agent_lines_survived, n.agent_lines_produced),
    agent_authored_pct: authored,
    // "null when the unit has no committed lines" (then the pct is null too).
    coding_mode: authored === null ? null : authored === 0 ? "human-only" : authored >= 99 ? "vibe" : "collaborative",
  };
}

/** The unit's identity columns of the contract (architecture.md) beside the counts. */
export const IDENTITY_COLUMNS = ["agent", "model", "method"] as const;

export type ReferenceUnit = DerivedColumns &
  EntireColumns & {
    /** From the transcript's content (formats.md §1.7), else Entire's `agent` label of the folder. */
    agent: string | null;
    /** §6 model (see `ReferenceOptions.unitModel`). */
    model: string | null;
    /** §4 `method`: the reference rebuilds file states from git, so `git-replay` whenever it computed the counts. */
    method: "git-replay" | null;
    checkpoint_id: string;
    session_id: string;
    commit_sha: string;
    /** The first reason of metrics.md §1 that applies; null when unambiguous. */
    ambiguity: string | null;
    ambiguity_reasons: string[];
    notes: string[];
    files: FileNumbers[];
  } & { [K in keyof UnitNumbers]: number | null };

export interface ReferenceResult {
  units: ReferenceUnit[];
  /** Session folders whose checkpoint is on no commit (metrics.md §1: no unit, counted). */
  unlinked_session_folders: number;
  checkpoints: number;
}

function sliceStart(meta: Record<string, unknown> | null): number | null {
  const v = meta?.checkpoint_transcript_start ?? meta?.transcript_lines_at_start;
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

function filesTouched(cp: Checkpoint): string[] {
  const out: string[] = [];
  for (const s of cp.sessions) {
    const ft = s.metadata?.files_touched;
    if (Array.isArray(ft)) for (const p of ft) if (typeof p === "string") out.push(p);
  }
  return out;
}

type TranscriptRead =
  | { kind: "missing" }
  | { kind: "unreadable"; why: string }
  | { kind: "ok"; parsed: ParsedTranscript; text: string };

/** Units of one session folder come one after another, so a one-entry cache is enough (and keeps memory flat). */
function readTranscript(repo: string, s: SessionFolder, cache: Map<string, TranscriptRead>): TranscriptRead {
  if (!s.transcriptBlob) return { kind: "missing" };
  const hit = cache.get(s.transcriptBlob);
  if (hit) return hit;
  cache.clear();
  const buf = readBlob(repo, s.transcriptBlob, false);
  let out: TranscriptRead;
  if (buf === null)
    out = { kind: "missing" }; // listed in the tree, object absent (large blobs in mirrors)
  else {
    const text = buf.toString("utf8");
    const parsed = parseTranscript(text);
    if (parsed.format === "unknown")
      out = {
        kind: "unreadable",
        why: "neither Claude Code nor Codex JSONL nor a Gemini CLI or Pi session (the reference reads no other format)",
      };
    else out = { kind: "ok", parsed, text };
  }
  cache.set(s.transcriptBlob, out);
  return out;
}

/**
 * Readings of points metrics.md leaves open. The defaults follow the spec's text and the brief;
 * the alternatives reproduce what `swe-chat-eval analyze` does, so the checker can tell
 * "reads the spec differently" from "computes something else".
 */
export interface ReferenceOptions {
  /** §2 "Myers, the diff package": jsdiff on whole arrays (default) or after matching the common prefix and suffix. */
  lineDiff?: LineDiffMode;
  /**
   * §3 names `checkpoint_transcript_start`, else `transcript_lines_at_start`, and says nothing when
   * both are absent. Default (the brief): the whole transcript. `true`: start after the longest
   * other copy of the session's transcript that is a strict byte prefix of this one (formats.md §1.2:
   * a later checkpoint's full.jsonl extends the earlier one).
   */
  inferSliceStart?: boolean;
  /**
   * A unit's `model`. metrics.md §6 defines a session's model (most output tokens) and no unit's.
   * Default `"session"`: the unit's session's model (its longest transcript). `"slice"`: the
   * product's reading: the model with the most output tokens in the checkpoint's slice, else the
   * session copy's; when this folder's transcript cannot be read, the session's (its longest
   * readable copy), else Entire's metadata `model` (formats.md §1.3) without a `[…]` suffix.
   */
  unitModel?: "session" | "slice";
  /**
   * Not in metrics.md §1: the product also leaves out a unit whose commit carries the checkpoint of
   * another session (two `Entire-Checkpoint` trailers), `multi-session-commit`, after rule 3.
   * Default: §1's list only.
   */
  multiSessionCommit?: boolean;
  /**
   * Not in metrics.md: an edit of a path that is, or passes through, a symbolic link of the repository
   * (`CLAUDE.md → AGENTS.md`) is replayed on the file the link names, as the agent's write through the
   * link changed that file. Default: the path as logged (the link's own blob).
   */
  followSymlinks?: boolean;
}

export function inferredStart(
  repo: string,
  plan: { session: SessionFolder },
  checkpoints: Map<string, Checkpoint>,
  gemini: boolean,
): number | null {
  const mine = plan.session.transcriptBlob ? readBlob(repo, plan.session.transcriptBlob, false) : null;
  if (!mine) return null;
  let best: number | null = null;
  for (const cp of checkpoints.values()) {
    for (const s of cp.sessions) {
      if (s === plan.session || s.sessionId !== plan.session.sessionId || !s.transcriptBlob) continue;
      const other = readBlob(repo, s.transcriptBlob, false);
      if (!other) continue;
      if (gemini) {
        // Gemini: positions count messages, and a document is rewritten whole (no byte prefix): the earlier
        // copy's messages must be the first ones of this copy, by id.
        const n = geminiPrefixLength(other.toString("utf8"), mine.toString("utf8"));
        if (n !== null && (best === null || n > best)) best = n;
        continue;
      }
      if (other.length >= mine.length || !mine.subarray(0, other.length).equals(other)) continue;
      // Its JSONL line count (as parseTranscript counts: a last line without \n is a line).
      let lines = 0;
      for (const byte of other) if (byte === 10) lines += 1;
      if (other.length > 0 && other[other.length - 1] !== 10) lines += 1;
      if (best === null || lines > best) best = lines;
    }
  }
  return best;
}

/** Runs the reference over a repository; units sorted by (session_id, commit_sha, checkpoint_id). */
export function runReference(repo: string, options: ReferenceOptions = {}): ReferenceResult {
  setLineDiffMode(options.lineDiff ?? "whole");
  clearBlobCache();
  const checkpoints = readCheckpoints(repo);
  const links = linkCommits(repo);
  const { units: plans, unlinkedFolders } = planUnits(checkpoints, links, {
    multiSessionCommit: options.multiSessionCommit,
  });
  const transcripts = new Map<string, TranscriptRead>();
  const trees = new Map<string, string[]>();
  const treePaths = (sha: string | null): string[] => {
    if (!sha) return [];
    if (!trees.has(sha))
      trees.set(
        sha,
        lsTree(repo, sha).map((e) => e.path),
      );
    return trees.get(sha)!;
  };

  const sessionModels = new Map(runReferenceSessions(repo, {}, checkpoints).map((s) => [s.session_id, s.model]));
  const units: ReferenceUnit[] = [];
  for (const plan of plans) {
    const reasons = [...plan.reasons];
    const notes: string[] = [];
    const firstParent = plan.commit.parents[0] ?? null;
    const empty = Object.fromEntries(NUMBER_COLUMNS.map((k) => [k, null])) as { [K in keyof UnitNumbers]: null };
    const unit: ReferenceUnit = {
      checkpoint_id: plan.checkpointId,
      session_id: plan.session.rawSessionId ?? plan.session.sessionId ?? `${plan.checkpointId}/${plan.session.folder}`,
      commit_sha: plan.commit.sha,
      agent: typeof plan.session.metadata?.agent === "string" ? plan.session.metadata.agent : null,
      model: plan.session.sessionId === null ? null : (sessionModels.get(plan.session.sessionId) ?? null),
      method: null,
      ...entireColumns(plan.session.metadata),
      ambiguity: null,
      ambiguity_reasons: reasons,
      notes,
      files: [],
      ...empty,
      numstat_additions: null,
      code_survival_rate: null,
      coding_efficiency: null,
      agent_authored_pct: null,
      coding_mode: null,
    };
    units.push(unit);

    // §1 rule 5 is decided inside computeUnit (the diff and the blobs it needs); rule 6 first needs the transcript.
    const t = readTranscript(repo, plan.session, transcripts);
    if (t.kind === "ok" && t.parsed.format !== "unknown") unit.agent = AGENT_NAMES[t.parsed.format];
    // Entire's label as the API names the model: Claude Code's settings add a context-window suffix such as `[1m]`.
    const metadataModel =
      typeof plan.session.metadata?.model === "string"
        ? plan.session.metadata.model.replace(/\[[^\]]*\]$/, "") || null
        : null;
    // The product's reading: without this folder's transcript, the session's model (its other copies), else Entire's label.
    if (options.unitModel === "slice" && t.kind !== "ok") unit.model = unit.model ?? metadataModel;
    const commitReadable = gitRaw(repo, ["cat-file", "-e", `${plan.commit.sha}^{tree}`]).ok;
    if (!commitReadable) reasons.push("commit-unreadable");
    // git's count needs only the two trees, so it is there even when the transcript is not.
    else unit.numstat_additions = numstatAdditions(repo, plan.commit.sha, firstParent);
    if (t.kind !== "ok") {
      if (commitReadable) {
        // The commit may still be unreadable further down; check it so reasons stay in §1's order.
        const probe = computeUnit(repo, plan.commit.sha, firstParent, [], [], new Set());
        if (probe.unreadable) reasons.push("commit-unreadable");
      }
      reasons.push(t.kind === "missing" ? "transcript-missing" : "transcript-unreadable");
      if (t.kind === "unreadable") notes.push(t.why);
      unit.ambiguity = reasons[0];
      continue;
    }
    const parsed = t.parsed;
    if (parsed.badLines > 0) notes.push(`${parsed.badLines} transcript line(s) are not JSON objects`);
    let start = sliceStart(plan.session.metadata);
    // The product's reading: an absent start, or an explicit 0 (what older Entire versions wrote on some later checkpoints).
    if ((start === null || start === 0) && options.inferSliceStart) {
      const inferred = inferredStart(repo, plan, checkpoints, parsed.format === "gemini");
      if (inferred !== null) {
        start = inferred;
        notes.push(
          `no slice start (or 0) in the metadata: inferred ${start}, after the longest earlier copy of the transcript`,
        );
      }
    }
    if (start === null) {
      start = 0;
      notes.push("no checkpoint_transcript_start or transcript_lines_at_start: the whole transcript is the slice");
    }
    if (options.unitModel === "slice" && parsed.format !== "unknown") {
      // The slice's own lines (start is 0-based, like resultLine), else the whole copy, else the metadata.
      const own = sessionEffort(t.text, parsed.format).model;
      // Gemini's slice starts at a message, not a line.
      // Pi's model_change before the slice names the model of its first messages.
      const slice =
        parsed.format === "gemini"
          ? sessionEffort(t.text, "gemini", { fromMessage: start })
          : parsed.format === "pi"
            ? sessionEffort(t.text, "pi", { fromLine: start })
            : sessionEffort(t.text.split("\n").slice(start).join("\n"), parsed.format);
      unit.model = slice.model ?? own ?? metadataModel;
    }
    if (!commitReadable) {
      unit.ambiguity = reasons[0];
      continue;
    }
    if (start > parsed.lineCount) {
      // formats.md §1.2: a checkpoint's copy holds the session up to that checkpoint, so a copy shorter than the
      // slice's start does not hold its part (a Gemini rewind or compression shortens the conversation): §1 rule 6.
      if (computeUnit(repo, plan.commit.sha, firstParent, [], [], new Set()).unreadable)
        reasons.push("commit-unreadable");
      reasons.push("transcript-unreadable");
      notes.push(
        `the slice starts at ${start}, past the end of the stored transcript (${parsed.lineCount}): it does not hold this checkpoint's part`,
      );
      unit.ambiguity = reasons[0];
      continue;
    }
    // §3: a call belongs to the checkpoint whose slice holds its result record.
    const calls = parsed.calls.filter((c) => c.resultLine >= start!);
    const known = new Set([
      ...treePaths(plan.commit.sha),
      ...treePaths(firstParent),
      ...filesTouched(checkpoints.get(plan.checkpointId)!),
    ]);
    const outcome = computeUnit(
      repo,
      plan.commit.sha,
      firstParent,
      calls,
      parsed.cwds,
      known,
      options.followSymlinks === true,
    );
    notes.push(...outcome.notes);
    if (outcome.unreadable) {
      reasons.push("commit-unreadable");
      notes.push(outcome.unreadable);
    } else {
      Object.assign(unit, outcome.numbers);
      if (outcome.numbers) unit.method = "git-replay";
      if (outcome.numbers) Object.assign(unit, deriveRates(outcome.numbers));
      unit.files = outcome.files;
    }
    // Reason 5 can only be known now; keep §1's order (5 before 6, and 6 does not apply here).
    reasons.sort((a, b) => REASON_ORDER.indexOf(a) - REASON_ORDER.indexOf(b));
    unit.ambiguity = reasons[0] ?? null;
  }
  clearBlobCache();
  units.sort((a, b) =>
    a.session_id + a.commit_sha + a.checkpoint_id < b.session_id + b.commit_sha + b.checkpoint_id ? -1 : 1,
  );
  return { units, unlinked_session_folders: unlinkedFolders.length, checkpoints: checkpoints.size };
}

/** metrics.md §1's order; `multi-session-commit` (only with the `multiSessionCommit` option) after rule 3, as the product. */
export const REASON_ORDER = [
  "multi-session-checkpoint",
  "multi-checkpoint-session",
  "multi-commit-checkpoint",
  "multi-session-commit",
  "merge-commit",
  "commit-unreadable",
  "transcript-missing",
  "transcript-unreadable",
];
