/** The sample repository, written through the git CLI with a fixed identity and environment. */
import { execFileSync } from "node:child_process";
import { devNull } from "node:os";

export interface Person {
  name: string;
  email: string;
  /** Numeric UTC offset for dates, e.g. `+0100`. */
  tz: string;
}

export const ZERO_SHA = "0000000000000000000000000000000000000000";

export class Git {
  constructor(readonly dir: string) {}

  run(args: string[], opts: { input?: string; env?: Record<string, string>; ident?: Person } = {}): string {
    // No reflogs: they would record the local user and the wall-clock time.
    const pre = [
      "-c",
      "core.autocrlf=false",
      "-c",
      "core.logAllRefUpdates=false",
      "-c",
      "commit.gpgsign=false",
      "-c",
      "init.defaultBranch=main",
    ];
    if (opts.ident) pre.push("-c", `user.name=${opts.ident.name}`, "-c", `user.email=${opts.ident.email}`);
    return execFileSync("git", [...pre, ...args], {
      cwd: this.dir,
      env: {
        PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
        HOME: this.dir,
        GIT_CONFIG_NOSYSTEM: "1",
        GIT_CONFIG_GLOBAL: devNull,
        GIT_TERMINAL_PROMPT: "0",
        LC_ALL: "C",
        TZ: "UTC",
        ...(opts.env ?? {}),
      },
      input: opts.input ?? "",
      encoding: "utf8",
      stdio: ["pipe", "pipe", "pipe"],
      maxBuffer: 64 * 1024 * 1024,
    });
  }

  blob(content: string): string {
    return this.run(["hash-object", "-w", "--stdin"], { input: content }).trim();
  }

  /** Apply file changes (null = delete) to an index file and write its tree. */
  tree(indexFile: string, changes: [string, string | null][]): string {
    if (changes.length > 0) {
      const lines = changes.map(([path, content]) =>
        content === null ? `0 ${ZERO_SHA}\t${path}` : `100644 ${this.blob(content)}\t${path}`,
      );
      this.run(["update-index", "--add", "--index-info"], {
        input: `${lines.join("\n")}\n`,
        env: { GIT_INDEX_FILE: indexFile },
      });
    }
    return this.run(["write-tree"], { env: { GIT_INDEX_FILE: indexFile } }).trim();
  }

  commitTree(
    tree: string,
    parents: string[],
    message: string,
    author: Person,
    authorMs: number,
    committer: Person,
    committerMs: number,
  ): string {
    const date = (ms: number, p: Person): string => `${Math.floor(ms / 1000)} ${p.tz}`;
    const args = ["commit-tree", tree];
    for (const p of parents) args.push("-p", p);
    args.push("-F", "-");
    return this.run(args, {
      input: message,
      ident: committer,
      env: {
        GIT_AUTHOR_NAME: author.name,
        GIT_AUTHOR_EMAIL: author.email,
        GIT_AUTHOR_DATE: date(authorMs, author),
        GIT_COMMITTER_DATE: date(committerMs, committer),
      },
    }).trim();
  }
}
