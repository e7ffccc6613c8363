/**
 * The bundled sample corpus: a small synthetic project whose team uses the
 * Entire CLI with Claude Code, generated from scratch, deterministically.
 *
 * `generateSampleCorpus(dir)` writes
 *
 * - `dir/repo/`: a real git repository (made with the git CLI) holding
 *   `main` (a tiny TypeScript formatting library), `release/0.1` (one
 *   cherry-picked fix), `feature/slug-options` (a worktree branch, merged by
 *   fast-forward) and the orphan branch `entire/checkpoints/v1` with one
 *   sharded folder per checkpoint, as Entire writes them;
 * - `dir/swe-chat/`: the same sessions as SWE-chat publishes its dataset (six
 *   Parquet tables and `transcripts/`), with hand-given labels
 *   (`swe-chat/labels.ts`);
 * - `dir/claude-projects/`: a Claude Code projects folder with the raw
 *   transcripts (`-home-dev-sample-app/<uuid>.jsonl`, one
 *   `<uuid>/subagents/agent-<id>.jsonl`, a worktree project folder and a
 *   sub-folder one), so the tool can also be pointed at transcripts + `--repo`.
 *
 * Everything is simulated: the agent's tool calls really change an in-memory
 * worktree, and the same contents become the transcripts' `originalFile`,
 * `structuredPatch` and the committed blobs, so the logs and the history
 * agree exactly the way real ones do. Dates, ids and token counts come from
 * fixed seeds: two generations give byte-identical files and commit shas.
 *
 * Each scenario (one file each in `scenarios/`) carries, as comments, the
 * attribution worked out by hand from docs metrics.md §1–4; the same
 * numbers are returned as `SampleCorpus.expected` for tests to compare
 * against.
 */
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { CHECKPOINTS_BRANCH } from "./builder/checkpoints-branch";
import { SampleBuilder } from "./builder/sample-builder";
import { HOME, ROOT } from "./project/constants";
import { buildHistory } from "./scenarios";
import { writeSweChatTables } from "./swe-chat/write-tables";
import type { SampleCorpus } from "./types";

export type {
  ExpectedUnit,
  SampleCheckpoint,
  SampleCheckpointSession,
  SampleCommit,
  SampleCorpus,
  SampleSession,
  SampleUsage,
} from "./types";

/** Bumped whenever the generated corpus changes in any way. */
export const SAMPLE_GENERATOR_VERSION = 4;

/**
 * Generate the sample corpus into `dir` (its `repo/` and `claude-projects/`
 * are replaced). Deterministic: the same version gives the same bytes and
 * commit shas.
 */
export async function generateSampleCorpus(dir: string): Promise<SampleCorpus> {
  const repoDir = join(dir, "repo");
  const projectsDir = join(dir, "claude-projects");
  rmSync(repoDir, { recursive: true, force: true });
  rmSync(projectsDir, { recursive: true, force: true });
  const sweChatDir = join(dir, "swe-chat");
  rmSync(sweChatDir, { recursive: true, force: true });
  mkdirSync(repoDir, { recursive: true });
  mkdirSync(projectsDir, { recursive: true });
  const b = new SampleBuilder(repoDir, projectsDir);
  b.git.run(["init", "-q"]);
  b.git.run(["config", "core.logAllRefUpdates", "false"]);
  buildHistory(b);
  const branches = b.finish();
  const sessions = b.writeProjects();
  await writeSweChatTables(sweChatDir, {
    sessions,
    commits: b.commits,
    checkpoints: b.checkpoints,
    expected: b.expected,
    git: b.git,
  });
  return {
    version: SAMPLE_GENERATOR_VERSION,
    root: dir,
    repoDir,
    claudeProjectsDir: projectsDir,
    sweChatDir,
    home: HOME,
    repoRootInTranscripts: ROOT,
    checkpointsBranch: CHECKPOINTS_BRANCH,
    branches,
    sessions,
    commits: b.commits,
    checkpoints: b.checkpoints,
    expected: b.expected,
  };
}
