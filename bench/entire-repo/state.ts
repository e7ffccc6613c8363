/**
 * The state of one build while the fast-import stream is open: main's files,
 * the clock, the branch tips (as marks), and the manifest rows gathered so
 * far. The helpers that draw from the seeded `rng` live here too; the order
 * of their calls fixes the repository, so callers keep it.
 */
import { execFileSync } from "node:child_process";
import type { Rng } from "../generate-corpus";
import type { Change, FastImport, Person } from "./fast-import";
import type { ExpectedUnit, ManifestCheckpoint, ManifestSession } from "./manifest";
import type { SessionLog } from "./session-log";

export const T_START = Date.UTC(2025, 11, 20) / 1000;
export const ENTIRE: Person = { name: "Entire", email: "entire@example.com" };
export const SAM: Person = { name: "Sam", email: "sam@example.com" };

// Marks stand in for shas until the import ends.
export type PendingUnit = Omit<ExpectedUnit, "commit_sha"> & { commit: number };
export type PendingSession = ManifestSession & { commitMarks: number[] };
export type PendingCheckpoint = ManifestCheckpoint & { commitMarks: number[] };

export interface BuildState {
  dir: string;
  seed: number;
  rng: Rng;
  fi: FastImport;
  git: (args: string[], input?: string | Buffer) => string;
  /** Main's files. */
  tree: Map<string, string>;
  /** release/1.x's files (the cherry-pick quirk). */
  release: Map<string, string>;
  /** Committer time of the latest commit on main (seconds). */
  time: number;
  head: number;
  checkpointsTip: number | null;
  releaseTip: number;
  usedIds: Set<string>;
  sessions: PendingSession[];
  checkpoints: PendingCheckpoint[];
  expected: PendingUnit[];
  missingBlobs: string[];
  /** Sessions whose metadata records the dated form `YYYY-MM-DD-<uuid>`: the id the product writes (metrics.md §1 Identity). */
  recordedIds: Map<string, string>;
  quirks: Record<string, number>;
  transcriptBytes: number;
  sessionBytes: number;
}

/** git in the build's repository, with the user's and system config left out. */
export const gitIn = (dir: string) => (args: string[], input?: string | Buffer) =>
  execFileSync("git", args, {
    cwd: dir,
    input,
    env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" },
    maxBuffer: 1 << 26,
  }).toString();

/** Moves main's clock on by at least a minute, or to `atLeast`. */
export const tick = (st: BuildState, atLeast = 0) => (st.time = Math.max(st.time + 60, Math.floor(atLeast)));

/** A fresh 12-hex checkpoint id (never all digits). */
export function checkpointId(st: BuildState): string {
  let id: string;
  do id = st.rng.hex(12);
  while (st.usedIds.has(id) || /^\d+$/.test(id));
  st.usedIds.add(id);
  return id;
}

/** Sets main's files; returns the fast-import changes. */
export function setFiles(st: BuildState, files: Map<string, string | null>): Change[] {
  const changes: Change[] = [];
  for (const [path, content] of [...files].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    if (content === null) {
      if (st.tree.delete(path)) changes.push({ path, content: null });
    } else if (st.tree.get(path) !== content) {
      st.tree.set(path, content);
      changes.push({ path, content });
    }
  }
  return changes;
}

export const personOf = (s: SessionLog): Person => ({
  name: s.user[0].toUpperCase() + s.user.slice(1),
  email: `${s.user}@example.com`,
});

export function subject(st: BuildState, s: SessionLog): string {
  const words = (s.prompts[0] ?? "update")
    .toLowerCase()
    .replace(/[^a-z ]/g, " ")
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, st.rng.int(3, 7))
    .join(" ");
  return `${st.rng.pick(["feat", "fix", "refactor", "chore", "test"])}: ${words || "update"}`;
}

export const trailer = (st: BuildState, id: string) =>
  `Entire-Checkpoint: ${id}${st.rng.chance(0.3) ? "\nCo-authored-by: Claude <noreply@anthropic.com>" : ""}\n`;
