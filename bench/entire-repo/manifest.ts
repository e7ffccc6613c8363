/**
 * What the generated repository promises: the generator version, the quirk
 * rates, and the shape of `manifest.json` (sessions, checkpoints and the
 * units `analyze` should form). bench/entire-repo/README.md describes each.
 */

export const ENTIRE_REPO_VERSION = 3;

export const QUIRK_RATES = {
  "two-checkpoints": 0.05, // one session, two checkpoints and two commits (multi-checkpoint-session)
  "two-sessions": 0.03, // two sessions in one checkpoint, one commit (multi-session-checkpoint)
  "two-commits": 0.03, // one checkpoint id on two different commits (multi-commit-checkpoint)
  "cherry-pick": 0.03, // the commit also copied onto release/1.x (same patch id: one unit)
  merge: 0.03, // the trailer is on a merge commit (merge-commit)
  "missing-blob": 0.01, // the commit adds a 4.5 MiB file whose blob is absent (commit-unreadable)
  "no-transcript": 0.02, // the session folder has metadata.json but no full.jsonl (transcript-missing)
  "unreadable-transcript": 0.01, // full.jsonl is NUL bytes (transcript-unreadable)
  "no-commit": 0.02, // the commit lost its trailer: the checkpoint is on no commit (no unit)
  "unknown-checkpoint": 0.01, // the trailer names a checkpoint that is not stored (no unit)
  "wrong-agent": 0.03, // a Claude Code transcript labelled "Gemini CLI"
  "legacy-id": 0.03, // session_id `YYYY-MM-DD-<uuid>`
  "body-mention": 0.03, // a later squash commit names the checkpoint in its body, not as a trailer
} as const;
export type Quirk = keyof typeof QUIRK_RATES;

export interface ManifestSession {
  /** `generateSession(seed, index)`. */
  index: number;
  session_id: string;
  quirk: Quirk | null;
  /** Variants of the quirk (`start-missing`, `legacy-id-first`). */
  variant: string[];
  checkpoints: string[];
  commits: string[];
  bytes: number;
  prompts: number;
  edits: number;
  patched_files: number;
}
export interface ManifestCheckpoint {
  checkpoint_id: string;
  sessions: string[];
  /** Commits carrying the trailer (copies included); empty: on no commit. */
  commits: string[];
  quirk: Quirk | null;
  /** `checkpoint_transcript_start` per session folder (null: left out). */
  transcript_start: (number | null)[];
  transcript_bytes: number;
  stored: boolean;
}
export interface ExpectedUnit {
  session_id: string;
  commit_sha: string;
  checkpoint_id: string;
  ambiguity: string | null;
  quirk: Quirk | null;
}
export interface EntireRepoManifest {
  version: number;
  seed: number;
  sessions: number;
  min_kb: number;
  repo: string;
  /** Σ bytes of every stored full.jsonl (a session in two checkpoints counts twice). */
  transcript_bytes: number;
  /** Σ bytes of each session's whole transcript once. */
  session_bytes: number;
  quirks: Record<string, number>;
  session_list: ManifestSession[];
  checkpoint_list: ManifestCheckpoint[];
  expected_units: ExpectedUnit[];
  /** Blobs deliberately deleted after the import (the missing-blob quirk). */
  missing_blobs: string[];
  seconds: number;
}
