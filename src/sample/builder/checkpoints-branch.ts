/**
 * Entire's checkpoints branch (`entire/checkpoints/v1`), imitated: one
 * commit per session folder, written after the code commit it belongs to.
 */
import { sumUsage } from "../claude-code/message";
import { ZERO_SHA } from "../git";
import type { Git } from "../git";
import { MAYA } from "../project/constants";
import { sha256 } from "../seeded/ids";
import { microIso } from "../seeded/clock";
import { Rng } from "../seeded/rng";
import { projectDirName } from "../text";
import type { Json } from "../text";
import type { SampleCheckpoint, SampleCommit } from "../types";
import type { EntireEntry } from "./session-handle";

export const CHECKPOINTS_BRANCH = "entire/checkpoints/v1";

export class CheckpointsBranch {
  readonly checkpoints: SampleCheckpoint[] = [];
  /** The branch's tip; null until the first checkpoint. */
  head: string | null = null;
  // One stream of numbers for every checkpoint, drawn in history order.
  private readonly rng = new Rng("entire");

  constructor(
    private readonly git: Git,
    /** The index file of the checkpoints branch. */
    private readonly indexFile: () => string,
  ) {}

  /**
   * Entire's condensation after a code commit: one commit per session on
   * the checkpoints branch, each adding `<id[:2]>/<id[2:]>/<n>/` and
   * rewriting the checkpoint's root `metadata.json`.
   */
  condense(id: string, commit: SampleCommit, entries: EntireEntry[]): void {
    if (this.head === null) {
      const empty = this.git.tree(this.indexFile(), []);
      const firstAt = commit.committer_time * 1000 - 60_000;
      this.head = this.git.commitTree(
        empty,
        [],
        "Initialize metadata branch\n\nThis branch stores session metadata.\n",
        MAYA,
        firstAt,
        MAYA,
        firstAt,
      );
    }
    const dir = `${id.slice(0, 2)}/${id.slice(2)}`;
    const summaries: Json[] = [];
    const cp: SampleCheckpoint = { checkpoint_id: id, commit: commit.name, sessions: [] };
    const totals = {
      input_tokens: 0,
      cache_creation_tokens: 0,
      cache_read_tokens: 0,
      output_tokens: 0,
      api_call_count: 0,
    };
    const touched: string[] = [];
    let when = commit.committer_time * 1000 + 350;
    entries.forEach((e, index) => {
      const s = e.session;
      const t = s.t;
      const full = t.jsonl(e.end);
      const calls = t.calls.filter((c) => c.record >= e.start && c.record < e.end);
      const usage = sumUsage(calls);
      const tokenUsage = {
        input_tokens: usage.input_tokens,
        cache_creation_tokens: usage.cache_creation_tokens,
        cache_read_tokens: usage.cache_read_tokens,
        output_tokens: usage.output_tokens,
        api_call_count: usage.api_calls,
      };
      totals.input_tokens += usage.input_tokens;
      totals.cache_creation_tokens += usage.cache_creation_tokens;
      totals.cache_read_tokens += usage.cache_read_tokens;
      totals.output_tokens += usage.output_tokens;
      totals.api_call_count += usage.api_calls;
      for (const f of e.filesTouched) if (!touched.includes(f)) touched.push(f);
      when += this.rng.int(150, 400);
      const createdAt = microIso(when, this.rng);
      const calculatedAt = microIso(when - this.rng.int(20, 240), this.rng);
      const a = e.attribution;
      const attribution = {
        calculated_at: calculatedAt,
        agent_lines: a.agent_lines,
        human_added: a.human_added,
        human_modified: a.human_modified,
        human_removed: a.human_removed,
        total_committed: a.total_committed,
        agent_percentage: a.total_committed > 0 ? (a.agent_lines / a.total_committed) * 100 : 0,
      };
      const meta: Json = {};
      if (e.cliVersion) meta.cli_version = e.cliVersion;
      Object.assign(meta, {
        checkpoint_id: id,
        session_id: s.entireSessionId,
        strategy: "manual-commit",
        created_at: createdAt,
        branch: s.branch,
        checkpoints_count: e.turns,
        files_touched: e.filesTouched,
      });
      if (s.agentLabel !== null) meta.agent = s.agentLabel;
      if (e.withModel) meta.model = t.models[t.models.length - 1];
      if (e.legacy) {
        meta.transcript_lines_at_start = e.start;
      } else {
        meta.transcript_identifier_at_start = e.start > 0 ? t.uuidBefore(e.start) : t.uuidBefore(1);
        if (e.start > 0) {
          meta.checkpoint_transcript_start = e.start;
          meta.transcript_lines_at_start = e.start;
        }
      }
      meta.token_usage = tokenUsage;
      if (!e.legacy)
        meta.session_metrics = {
          turn_count: e.promptTexts.filter((x) => !x.startsWith("This session is being continued")).length,
        };
      meta.initial_attribution = attribution;
      if (!e.legacy) meta.transcript_path = `.claude/projects/${projectDirName(s.cwd)}/${s.sessionId}.jsonl`;

      const base = `${dir}/${index}`;
      const summary: Json = {
        metadata: `/${base}/metadata.json`,
        transcript: `/${base}/full.jsonl`,
        content_hash: `/${base}/content_hash.txt`,
        prompt: `/${base}/prompt.txt`,
      };
      summaries.push(summary);
      const root: Json = {};
      if (e.cliVersion) root.cli_version = e.cliVersion;
      Object.assign(root, {
        checkpoint_id: id,
        strategy: "manual-commit",
        branch: s.branch,
        checkpoints_count: entries.slice(0, index + 1).reduce((n, x) => n + x.turns, 0),
        files_touched: touched.slice(),
        sessions: summaries.slice(),
        token_usage: { ...totals },
      });

      const changes: [string, string | null][] = [
        [`${base}/metadata.json`, `${JSON.stringify(meta, null, 2)}\n`],
        [`${base}/prompt.txt`, e.promptTexts.join("\n\n---\n\n")],
        [`${base}/content_hash.txt`, `sha256:${sha256(full)}`],
        [`${dir}/metadata.json`, `${JSON.stringify(root, null, 2)}\n`],
      ];
      // A lost transcript: the folder keeps its metadata, hash and prompts, the file is gone.
      if (!s.lost) changes.splice(1, 0, [`${base}/full.jsonl`, full]);
      const tree = this.git.tree(this.indexFile(), changes);
      const parentOfCode = commit.parents[0] ?? ZERO_SHA;
      const shadow = `entire/${parentOfCode.slice(0, 7)}-${sha256(s.worktree).slice(0, 6)}`;
      let message = `Checkpoint: ${id}\n\nEntire-Session: ${s.entireSessionId}\nEntire-Strategy: manual-commit\n`;
      if (s.agentLabel !== null) message += `Entire-Agent: ${s.agentLabel}\n`;
      message += `Ephemeral-branch: ${shadow}\n`;
      const committer = MAYA;
      this.head = this.git.commitTree(tree, this.head ? [this.head] : [], message, committer, when, committer, when);
      if (!s.checkpoints.includes(id)) s.checkpoints.push(id);
      cp.sessions.push({
        index,
        session_key: s.key,
        entire_session_id: s.entireSessionId,
        transcript_present: !s.lost,
        transcript_start: e.start,
        transcript_records: e.end,
      });
    });
    this.git.run(["update-ref", `refs/heads/${CHECKPOINTS_BRANCH}`, this.head as string]);
    this.checkpoints.push(cp);
  }
}
