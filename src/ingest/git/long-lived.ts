/**
 * The part every long-lived git process shares (`cat-file --batch`,
 * `diff-tree --stdin`): started on the first request, requests answered in
 * the order written (a FIFO pairs answers with callers), unref'd while idle
 * so that a forgotten `close()` does not keep Node alive, and a process that
 * dies fails only the requests in flight; the next request starts a new one.
 * Subclasses parse the answers.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { gitArgs, gitEnv } from "./exec";

export abstract class LongLivedGit<P extends { reject: (error: Error) => void }> {
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  protected queue: P[] = [];
  /** Requests queued in this turn of the event loop, written together (see `send`). */
  private unwritten: string[] = [];

  constructor(
    private readonly gitDir: string,
    private readonly args: readonly string[],
  ) {}

  /** Parses a chunk of standard output, settling requests from the front of `queue`. */
  protected abstract onData(data: Buffer): void;
  /** Forgets a partly read answer: a new process starts, or the old one ended (`error`: why). */
  protected abstract resetStream(error?: Error): void;

  /** Queues `pending` and writes its request (made after the process has started, when a function); false when git cannot be started. */
  protected send(pending: P, request: string | (() => string)): boolean {
    const child = this.ensure();
    if (child === null) return false;
    this.queue.push(pending);
    this.setRef(true);
    this.unwritten.push(typeof request === "string" ? request : request());
    // Requests made in one turn of the event loop (a tree's sub-folders, a unit's blobs) go out in one write:
    // a write per request was 5 % of a run's time.
    if (this.unwritten.length === 1) process.nextTick(() => this.flush(child));
    return true;
  }

  /** Writes the requests not yet written, to `child` if it is still the process (one that ended failed them all). */
  private flush(child: ChildProcess | null): void {
    if (child === null || child !== this.child || this.unwritten.length === 0) return;
    const text = this.unwritten.length === 1 ? this.unwritten[0] : this.unwritten.join("");
    this.unwritten = [];
    child.stdin!.write(text);
  }

  /** Call when a request is settled: an idle process no longer keeps Node alive. */
  protected settled(): void {
    if (this.queue.length === 0) this.setRef(false);
  }

  /** Output nobody asked for: the stream is out of step; the process is restarted on the next request. */
  protected outOfStep(): void {
    this.child?.kill();
  }

  /** Ends the process after the requests already written are answered. */
  async close(): Promise<void> {
    const child = this.child;
    if (child !== null) {
      this.setRef(true);
      this.flush(child);
      child.stdin!.end();
    }
    await this.exited;
  }

  private ensure(): ChildProcess | null {
    if (this.child !== null) return this.child;
    let child: ChildProcess;
    try {
      child = spawn("git", gitArgs(this.gitDir, this.args), {
        cwd: this.gitDir,
        env: gitEnv(),
        stdio: ["pipe", "pipe", "pipe"],
        windowsHide: true,
      });
    } catch {
      return null;
    }
    this.child = child;
    this.resetStream();
    const stderr: Buffer[] = [];
    this.exited = new Promise((resolve) => {
      let done = false;
      const finish = (why: string) => {
        if (done) return;
        done = true;
        if (this.child === child) this.child = null;
        const detail = stderr.length ? ": " + Buffer.concat(stderr).toString("utf8").trim().slice(0, 2000) : "";
        this.failAll(new Error(`git ${this.args[0]} ended (${why})${detail}`));
        resolve();
      };
      child.on("error", (error) => finish(String(error)));
      child.on("close", (code, signal) => finish(signal ? `signal ${signal}` : `exit ${code}`));
    });
    child.stdout!.on("data", (data: Buffer) => this.onData(data));
    // Only the start is kept: a long-lived process may report many unreadable objects and go on.
    child.stderr!.on("data", (data: Buffer) => {
      if (stderr.length < 16) stderr.push(data);
    });
    child.stdin!.on("error", () => {
      /* EPIPE: the close handler fails the pending requests */
    });
    return child;
  }

  private setRef(on: boolean): void {
    const child = this.child;
    if (child === null) return;
    const streams = [child.stdin, child.stdout, child.stderr] as unknown as Array<{
      ref?: () => void;
      unref?: () => void;
    } | null>;
    if (on) {
      child.ref();
      for (const s of streams) s?.ref?.();
    } else {
      child.unref();
      for (const s of streams) s?.unref?.();
    }
  }

  private failAll(error: Error): void {
    const pending = this.queue;
    this.queue = [];
    this.unwritten = [];
    this.resetStream(error);
    for (const p of pending) p.reject(error);
  }
}
