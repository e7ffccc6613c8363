/** A simulated session as the builder tracks it, and what Entire records about one checkpoint of it. */
import type { Transcript } from "../claude-code/transcript";
import type { Tools } from "../claude-code/tools";

export interface SessionHandle {
  key: string;
  scenarios: number[];
  t: Transcript;
  tools: Tools;
  sessionId: string;
  entireSessionId: string;
  agentLabel: string | null;
  cwd: string;
  branch: string;
  /** Worktree id for Entire's shadow branch name ("" for the main worktree). */
  worktree: string;
  prompts: number;
  lost: boolean;
  checkpoints: string[];
  startedAt: string;
}

export interface EntireAttribution {
  agent_lines: number;
  human_added: number;
  human_modified: number;
  human_removed: number;
  total_committed: number;
}

export interface EntireEntry {
  session: SessionHandle;
  /** Record range [start, end) of this checkpoint's part; full.jsonl holds [0, end). */
  start: number;
  end: number;
  filesTouched: string[];
  attribution: EntireAttribution;
  /** Prompts of this part, as Entire lists them in prompt.txt. */
  promptTexts: string[];
  turns: number;
  cliVersion: string | null;
  legacy?: boolean;
  withModel?: boolean;
}

/** Commit time: a few minutes after the session's last record. */
export function after(h: SessionHandle, seconds: number): number {
  return h.t.clock.ms + seconds * 1000;
}
