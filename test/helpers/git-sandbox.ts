import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * git with no global or system configuration of the machine: its own HOME and
 * config (default branch main, no signing), fixed identities, and a clock that
 * moves one minute per call from `t0`, so commits have distinct, known times
 * and stable shas.
 */
export class GitSandbox {
  private clock = 0;
  readonly env: NodeJS.ProcessEnv;
  constructor(
    readonly root: string,
    private readonly t0: number,
  ) {
    const home = join(root, "home");
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, "gitconfig"), "[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n");
    this.env = {
      PATH: process.env.PATH,
      HOME: home,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: join(home, "gitconfig"),
      GIT_AUTHOR_NAME: "Ada",
      GIT_AUTHOR_EMAIL: "ada@example.com",
      GIT_COMMITTER_NAME: "Ada",
      GIT_COMMITTER_EMAIL: "ada@example.com",
      LC_ALL: "C",
    };
  }

  /** git in `cwd`; each call one minute later than the previous one. */
  git(cwd: string, args: string[], input?: string | Buffer, extraEnv: Record<string, string> = {}): string {
    const t = this.t0 + 60 * this.clock++;
    return execFileSync("git", args, {
      cwd,
      input,
      env: { ...this.env, GIT_AUTHOR_DATE: `@${t} +0000`, GIT_COMMITTER_DATE: `@${t} +0000`, ...extraEnv },
      maxBuffer: 64 * 1024 * 1024,
    }).toString("utf8");
  }

  /** The epoch the NEXT git call will use. */
  nextTime(): number {
    return this.t0 + 60 * this.clock;
  }
}
