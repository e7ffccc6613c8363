import {
  BASE,
  countOwned,
  type FileState,
  HUMAN,
  type LineOwner,
  stateFromText,
  transition,
} from "../replay/file-state";
import { insertedMask } from "../replay/line-diff";
import { isBinaryText, splitLines } from "../replay/lines";
import type { ReplayResult } from "../replay/replay-edits";

/** A file the commit changes (first-parent diff), with its two sides. */
export interface CommittedFile {
  path: string;
  /** Content at the unit's base (first parent); null when the file did not exist. */
  base: string | null;
  /** Content at the commit; null when the commit deletes the file. */
  commit: string | null;
}

export interface FileAttribution {
  path: string;
  produced: number;
  final: number;
  survived: number;
  human: number;
  outside: number;
  committed: number;
}

export interface LineCounts {
  agent_lines_produced: number;
  agent_lines_final: number;
  agent_lines_survived: number;
  human_lines: number;
  outside_lines: number;
  total_committed_lines: number;
}

export interface CommitAttribution extends LineCounts {
  files: FileAttribution[];
}

/**
 * Carries the replayed states into the commit (metrics.md §4): final state →
 * committed content, inserted lines human; then only the lines a Myers diff
 * base → commit adds are committed lines, each with its replayed owner
 * (a replayed `base` owner becoming `human`).
 */
export function attributeAtCommit(
  replay: ReplayResult,
  committed: readonly CommittedFile[],
  /** Called for every committed line (1-based in the committed file), in order, when the caller wants the lines. */
  onLine?: (path: string, line: number, owner: LineOwner) => void,
): CommitAttribution {
  const byPath = new Map<string, FileAttribution>();
  const row = (path: string): FileAttribution => {
    let r = byPath.get(path);
    if (!r) {
      r = { path, produced: 0, final: 0, survived: 0, human: 0, outside: 0, committed: 0 };
      byPath.set(path, r);
    }
    return r;
  };
  for (const file of replay.files.values()) {
    const r = row(file.path);
    r.produced = file.produced;
    r.final = countOwned(file.state, "agent");
  }
  for (const file of committed) {
    const commitText = file.commit ?? "";
    if (isBinaryText(commitText)) continue;
    const replayed: FileState = replay.files.get(file.path)?.state ?? stateFromText(file.base ?? "", BASE);
    const atCommit = transition(replayed, commitText, HUMAN).state;
    const added = insertedMask(splitLines(file.base ?? ""), atCommit.lines);
    const r = row(file.path);
    for (let j = 0; j < added.length; j++) {
      if (!added[j]) continue;
      r.committed++;
      const origin = atCommit.owners[j].origin;
      if (onLine) onLine(file.path, j + 1, atCommit.owners[j]);
      if (origin === "agent") r.survived++;
      else if (origin === "outside") r.outside++;
      else r.human++;
    }
  }
  const files = [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const sum = (key: keyof Omit<FileAttribution, "path">) => files.reduce((s, f) => s + f[key], 0);
  return {
    agent_lines_produced: replay.produced,
    agent_lines_final: sum("final"),
    agent_lines_survived: sum("survived"),
    human_lines: sum("human"),
    outside_lines: sum("outside"),
    total_committed_lines: sum("committed"),
    files,
  };
}
