/**
 * Real git repositories with Entire checkpoints, several commits and several checkpoints (for the
 * Gemini cases and the differential fuzzing): `git init` in a temp folder, a base commit, then each
 * commit of `commits` on `main` (a deleted file is `null`) with one `Entire-Checkpoint` trailer per
 * checkpoint it carries, and the orphan branch `entire/checkpoints/v1` holding every checkpoint's
 * `<id[:2]>/<id[2:]>/<n>/` session folders (formats.md §1.2–1.4). Transcripts are given as text, so
 * a Gemini document (pretty JSON) or log (JSONL) is stored byte for byte.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { run } from "./fixture";

export interface SessionFolderSpec {
  sessionId: string;
  /** Entire's label (formats.md §1.1); the readers take the format from the content. */
  agent: string;
  /** `full.jsonl`, byte for byte; null: the folder has no transcript. */
  transcript: string | null;
  /** Extra session metadata (`checkpoint_transcript_start`, `initial_attribution`, …). */
  meta?: Record<string, unknown>;
}

export interface RepoSpec {
  base: Record<string, string>;
  commits: { files: Record<string, string | null>; checkpoints: string[] }[];
  checkpoints: Record<string, SessionFolderSpec[]>;
}

let clock = 0;
function git(dir: string, args: string[]): void {
  // Distinct, increasing dates: the earliest-copy rule (metrics.md §1) and git's order stay deterministic.
  run(dir, args, new Date(Date.UTC(2026, 0, 1, 10, 0, 0) + 60_000 * clock++).toISOString());
}

function write(dir: string, files: Record<string, string | null>): void {
  for (const [path, text] of Object.entries(files)) {
    if (text === null) rmSync(join(dir, path), { force: true });
    else {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
  }
}

/** Builds the repository under `parent` (default: the OS temp folder); returns its path and a cleanup. */
export function buildRepo(spec: RepoSpec, parent: string = tmpdir()): { repo: string; cleanup: () => void } {
  const repo = mkdtempSync(join(parent, "ref-repo-"));
  git(repo, ["init", "-q", "-b", "main"]);
  write(repo, spec.base);
  git(repo, ["add", "-A"]);
  git(repo, ["commit", "-q", "--allow-empty", "-m", "base"]);
  spec.commits.forEach((c, i) => {
    write(repo, c.files);
    git(repo, ["add", "-A"]);
    const trailers = c.checkpoints.map((id) => `Entire-Checkpoint: ${id}`).join("\n");
    git(repo, ["commit", "-q", "--allow-empty", "-m", `work ${i + 1}${trailers ? `\n\n${trailers}` : ""}`]);
  });

  git(repo, ["checkout", "-q", "--orphan", "entire/checkpoints/v1"]);
  git(repo, ["rm", "-rq", "--cached", "."]);
  execFileSync("git", ["clean", "-fdqx"], { cwd: repo, stdio: "ignore" });
  for (const [id, folders] of Object.entries(spec.checkpoints)) {
    const dir = `${id.slice(0, 2)}/${id.slice(2)}`;
    const files: Record<string, string> = {
      [`${dir}/metadata.json`]: JSON.stringify(
        {
          checkpoint_id: id,
          strategy: "manual-commit",
          branch: "main",
          checkpoints_count: 1,
          sessions: folders.map((_, n) => ({
            metadata: `/${dir}/${n}/metadata.json`,
            transcript: `/${dir}/${n}/full.jsonl`,
          })),
        },
        null,
        2,
      ),
    };
    folders.forEach((f, n) => {
      files[`${dir}/${n}/metadata.json`] = JSON.stringify(
        {
          checkpoint_id: id,
          session_id: f.sessionId,
          strategy: "manual-commit",
          created_at: "2026-01-01T11:00:00Z",
          branch: "main",
          checkpoints_count: 1,
          agent: f.agent,
          ...f.meta,
        },
        null,
        2,
      );
      if (f.transcript !== null) files[`${dir}/${n}/full.jsonl`] = f.transcript;
    });
    write(repo, files);
  }
  git(repo, ["add", "-A"]);
  git(repo, ["commit", "-q", "--allow-empty", "-m", "Checkpoints\n\nEntire-Strategy: manual-commit"]);
  git(repo, ["checkout", "-q", "-f", "main"]);
  return { repo, cleanup: () => rmSync(repo, { recursive: true, force: true }) };
}
