/**
 * Running the git CLI: one place that fixes the environment and the
 * configuration overrides every git call of this project uses, so that a
 * user's or a repository's own settings (colour, signatures, external diff
 * drivers, path quoting, lazy fetches in partial clones) never change what we
 * parse.
 */
import { spawn, type ChildProcess } from "node:child_process";

/** Variables that would make git look at another repository than the one we name. */
const DISCOVERY_VARIABLES = [
  "GIT_DIR",
  "GIT_WORK_TREE",
  "GIT_INDEX_FILE",
  "GIT_COMMON_DIR",
  "GIT_NAMESPACE",
  "GIT_PREFIX",
  "GIT_OBJECT_DIRECTORY",
  "GIT_ALTERNATE_OBJECT_DIRECTORIES",
  "GIT_CEILING_DIRECTORIES",
];

/** The environment every git process of this project runs with. */
export function gitEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of DISCOVERY_VARIABLES) delete env[name];
  // Never reach the network: a partial clone would otherwise fetch missing
  // blobs on demand (git >= 2.44 honours this; older ones ignore it).
  env.GIT_NO_LAZY_FETCH = "1";
  env.GIT_TERMINAL_PROMPT = "0";
  env.GIT_OPTIONAL_LOCKS = "0";
  env.LC_ALL = "C";
  env.LANG = "C";
  env.GIT_PAGER = "cat";
  return { ...env, ...extra };
}

/** `-c` overrides put before every subcommand (protected, command-line scope). */
export const GIT_CONFIG_OVERRIDES: readonly string[] = [
  "-c",
  "core.quotePath=false",
  "-c",
  "log.showSignature=false",
  "-c",
  "log.showRoot=true",
  "-c",
  "color.ui=false",
  "-c",
  "diff.noprefix=false",
  "-c",
  "diff.mnemonicPrefix=false",
  "-c",
  "diff.relative=false",
  "-c",
  "core.fsmonitor=false",
];

/** Arguments that make git read the repository at `gitDir` and nothing else. */
export function gitArgs(gitDir: string | null, args: readonly string[]): string[] {
  const base = gitDir === null ? [] : [`--git-dir=${gitDir}`];
  return [...base, ...GIT_CONFIG_OVERRIDES, ...args];
}

export interface GitRunOptions {
  /** Written to the process's standard input, which is then closed. */
  input?: string | Uint8Array;
  /** Working directory of the process (defaults to the git dir, or the current directory). */
  cwd?: string;
}

export interface GitRunResult {
  stdout: Buffer;
  stderr: string;
  /** Exit code; -1 when the process could not be started (e.g. no git on PATH). */
  code: number;
}

/** Runs one git command to completion. Never rejects: failures are in `code` and `stderr`. */
export function runGit(
  gitDir: string | null,
  args: readonly string[],
  opts: GitRunOptions = {},
): Promise<GitRunResult> {
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      child = spawn("git", gitArgs(gitDir, args), {
        cwd: opts.cwd ?? gitDir ?? undefined,
        env: gitEnv(),
        stdio: ["pipe", "pipe", "pipe"],
        windowsHide: true,
      });
    } catch (error) {
      resolve({ stdout: Buffer.alloc(0), stderr: String(error), code: -1 });
      return;
    }
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let settled = false;
    const finish = (code: number, extra = "") => {
      if (settled) return;
      settled = true;
      resolve({ stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString("utf8") + extra, code });
    };
    child.stdout!.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr!.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", (error) => finish(-1, String(error)));
    child.on("close", (code, signal) => finish(code ?? (signal ? 128 : -1)));
    child.stdin!.on("error", () => {
      /* EPIPE when git exits before reading all input: the exit code tells */
    });
    if (opts.input !== undefined) child.stdin!.end(opts.input);
    else child.stdin!.end();
  });
}

/** Runs `git <args>` and returns its standard output as text, or null when git failed. */
export async function gitText(
  gitDir: string | null,
  args: readonly string[],
  opts: GitRunOptions = {},
): Promise<string | null> {
  const result = await runGit(gitDir, args, opts);
  return result.code === 0 ? result.stdout.toString("utf8") : null;
}

/**
 * Runs `git <first>` and pipes its standard output into `git <second>` (e.g.
 * `git log -p | git patch-id`), returning the second's output. Never rejects.
 */
export function runGitPipeline(
  gitDir: string,
  first: readonly string[],
  second: readonly string[],
  input: string,
): Promise<GitRunResult> {
  return new Promise((resolve) => {
    let a: ChildProcess;
    let b: ChildProcess;
    try {
      a = spawn("git", gitArgs(gitDir, first), {
        cwd: gitDir,
        env: gitEnv(),
        stdio: ["pipe", "pipe", "pipe"],
        windowsHide: true,
      });
      // The first's output goes to the second through the pipe itself: through Node, `git log -p` over a long
      // history is hundreds of megabytes copied on the main thread.
      b = spawn("git", gitArgs(gitDir, second), {
        cwd: gitDir,
        env: gitEnv(),
        stdio: [a.stdout!, "pipe", "pipe"],
        windowsHide: true,
      });
    } catch (error) {
      resolve({ stdout: Buffer.alloc(0), stderr: String(error), code: -1 });
      return;
    }
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let codeA: number | null = null;
    let codeB: number | null = null;
    let settled = false;
    const done = () => {
      if (settled || codeA === null || codeB === null) return;
      settled = true;
      resolve({
        stdout: Buffer.concat(out),
        stderr: Buffer.concat(err).toString("utf8"),
        code: codeA !== 0 ? codeA : codeB,
      });
    };
    // The second holds its own copy of the pipe's end: this process's is closed, never read.
    a.stdout!.destroy();
    a.stderr!.on("data", (chunk: Buffer) => err.push(chunk));
    b.stderr!.on("data", (chunk: Buffer) => err.push(chunk));
    b.stdout!.on("data", (chunk: Buffer) => out.push(chunk));
    a.stdin!.on("error", () => {});
    a.on("error", (e) => {
      err.push(Buffer.from(String(e)));
      codeA = -1;
      done();
    });
    b.on("error", (e) => {
      err.push(Buffer.from(String(e)));
      codeB = -1;
      done();
    });
    a.on("close", (code, signal) => {
      codeA = code ?? (signal ? 128 : -1);
      done();
    });
    b.on("close", (code, signal) => {
      codeB = code ?? (signal ? 128 : -1);
      done();
    });
    a.stdin!.end(input);
  });
}
