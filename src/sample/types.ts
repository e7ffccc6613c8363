/** The public shape of the generated sample corpus (what `generateSampleCorpus` returns). */

/** Token totals, one count per API call (streamed records counted once). */
export interface SampleUsage {
  api_calls: number;
  input_tokens: number;
  output_tokens: number;
  cache_creation_tokens: number;
  cache_read_tokens: number;
}

export interface SampleSession {
  /** Short stable name, e.g. `s02-table`. */
  key: string;
  /** The scenario numbers (README table) this session takes part in. */
  scenarios: number[];
  /** The id inside the transcript (and the transcript's file name). */
  session_id: string;
  /** The id as Entire stored it (date-prefixed for the legacy session). */
  entire_session_id: string;
  /** Entire's `agent` label; null when the metadata has none. */
  agent_label: string | null;
  /** What the transcript really is, whatever the label says. */
  format: "claude-code";
  claude_code_version: string;
  /** Main-thread models, in order of first use. */
  models: string[];
  /** Models used by sub-agents. */
  subagent_models: string[];
  cwd: string;
  /** The Claude Code project folder name (cwd with `/` and `.` as `-`). */
  project_dir: string;
  branch: string;
  /** Absolute path of the raw transcript under `claudeProjectsDir`; null when it was lost. */
  transcript: string | null;
  subagent_transcripts: string[];
  /** Lines (records) of the whole transcript. */
  record_count: number;
  /** Records per top-level `type`. */
  record_types: Record<string, number>;
  subagent_record_counts: number[];
  /** Real user prompts (metrics.md §5), counted by hand. */
  prompts: number;
  checkpoints: string[];
  /** Main-thread usage, `<synthetic>` records excluded. */
  usage: SampleUsage;
  /** Sub-agent usage (nested `agent_progress` / sidechain records), or null. */
  subagent_usage: SampleUsage | null;
  started_at: string;
  ended_at: string;
}

export interface SampleCommit {
  /** `C0` … `C15`, `C9r` for the cherry-picked copy. */
  name: string;
  sha: string;
  branch: string;
  subject: string;
  author: string;
  committer: string;
  /** Epoch seconds. */
  author_time: number;
  committer_time: number;
  parents: string[];
  /** The `Entire-Checkpoint` trailer as git parses it; null when there is none. */
  checkpoint_id: string | null;
  /** Name of the commit this one copies (cherry-pick); null otherwise. */
  copy_of: string | null;
  scenarios: number[];
  note: string;
}

export interface SampleCheckpointSession {
  index: number;
  session_key: string;
  entire_session_id: string;
  transcript_present: boolean;
  /** 0-based first line of this checkpoint's part of the transcript. */
  transcript_start: number;
  /** Lines of the stored `full.jsonl` (what it would have had, when absent). */
  transcript_records: number;
}

export interface SampleCheckpoint {
  checkpoint_id: string;
  /** Name of the commit carrying the trailer on `main`. */
  commit: string;
  sessions: SampleCheckpointSession[];
}

/** The attribution of one unit (session, commit), worked out by hand. */
export interface ExpectedUnit {
  scenario: number;
  session_key: string;
  session_id: string;
  commit: string;
  commit_sha: string;
  checkpoint_id: string;
  ambiguity: string | null;
  ambiguity_reasons: string[];
  /** null: not computable (no transcript); an engine may also report 0 agent lines and all lines human. */
  agent_lines_produced: number | null;
  agent_lines_final: number | null;
  agent_lines_survived: number | null;
  human_lines: number | null;
  outside_lines: number | null;
  total_committed_lines: number | null;
  outside_changes: number | null;
  unreplayable_calls: number | null;
  /** Entire's own `initial_attribution`, as stored in the session metadata. */
  entire_agent_lines: number;
  entire_total_committed: number;
  why: string;
}

export interface SampleCorpus {
  version: number;
  root: string;
  repoDir: string;
  claudeProjectsDir: string;
  /** The same sessions as SWE-chat's Parquet tables and transcripts/, with hand-given labels (swe-chat/labels.ts). */
  sweChatDir: string;
  /** The fake home and repository root that the transcripts' absolute paths use. */
  home: string;
  repoRootInTranscripts: string;
  checkpointsBranch: string;
  branches: Record<string, string>;
  sessions: SampleSession[];
  commits: SampleCommit[];
  checkpoints: SampleCheckpoint[];
  expected: ExpectedUnit[];
}
