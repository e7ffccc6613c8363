import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** A real git repository in a temp folder, with fixed identities and dates so shas are stable. */
export class TestRepo {
  readonly dir: string;
  private time = 1772445600; // 2026-03-02T10:00:00Z
  constructor(prefix = "sce-repo-") {
    this.dir = mkdtempSync(join(tmpdir(), prefix));
    this.git("init", "-q", "-b", "main");
  }

  git(...args: string[]): string {
    const date = `${this.time} +0000`;
    return execFileSync(
      "git",
      ["-c", "user.name=Test Person", "-c", "user.email=person@example.invalid", "-c", "commit.gpgsign=false", ...args],
      {
        cwd: this.dir,
        env: { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
        encoding: "utf8",
      },
    );
  }

  write(files: Record<string, string>): void {
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(this.dir, path)), { recursive: true });
      writeFileSync(join(this.dir, path), content);
    }
  }

  commit(message: string, files: Record<string, string> = {}): string {
    this.time += 3600;
    this.write(files);
    this.git("add", "-A");
    this.git("commit", "-q", "--allow-empty", "-m", message);
    return this.git("rev-parse", "HEAD").trim();
  }

  /** Writes the `entire/checkpoints/v1` orphan branch with the given files, without touching the work tree. */
  checkpointsBranch(files: Record<string, string>): void {
    const entries: string[] = [];
    for (const [path, content] of Object.entries(files)) {
      const sha = execFileSync("git", ["hash-object", "-w", "--stdin"], {
        cwd: this.dir,
        input: content,
        encoding: "utf8",
      }).trim();
      entries.push(`100644 blob ${sha}\t${path}`);
    }
    const index = join(this.dir, ".git", "tmp-index");
    const env = { ...process.env, GIT_INDEX_FILE: index };
    execFileSync("git", ["update-index", "--add", "--index-info"], {
      cwd: this.dir,
      input: entries.join("\n") + "\n",
      env,
    });
    const tree = execFileSync("git", ["write-tree"], { cwd: this.dir, env, encoding: "utf8" }).trim();
    const date = `${this.time} +0000`;
    const commit = execFileSync(
      "git",
      ["-c", "user.name=Entire", "-c", "user.email=entire@example.invalid", "commit-tree", tree, "-m", "Checkpoint"],
      {
        cwd: this.dir,
        env: { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
        encoding: "utf8",
      },
    ).trim();
    this.git("update-ref", "refs/heads/entire/checkpoints/v1", commit);
  }
}
