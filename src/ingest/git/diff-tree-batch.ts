/**
 * Commit diffs over ONE long-lived `git diff-tree --stdin` process instead of
 * one process per commit (an Entire analysis asks for one diff per unit:
 * starting git for each was nearly all of its git processes).
 *
 * Each request writes `<commit> [<parent>]` and then a sentinel line that
 * is not an object name; diff-tree prints such a line back as it is and
 * flushes, so everything before the sentinel is that commit's diff (a
 * `<sha>` header and the `-z --raw --numstat` records). Requests are
 * answered in order, so a FIFO pairs answers with callers.
 *
 * diff-tree prints nothing at all both for a commit without changes and for
 * one it cannot read (a missing object goes to stderr and the process goes
 * on), so an empty answer is `""` and the caller decides. A process that
 * dies (a blob missing for `--numstat`) fails only the requests in flight;
 * the next request starts a new one ({@link LongLivedGit}).
 */
import { randomBytes } from "node:crypto";
import { LongLivedGit } from "./long-lived";

interface Pending {
  sentinel: Buffer;
  resolve: (records: Buffer) => void;
  reject: (error: Error) => void;
}

const DIFF_TREE_ARGS = [
  "diff-tree",
  "--stdin",
  "--root",
  "-r",
  "-z",
  "--raw",
  "--numstat",
  "--no-renames",
  "--no-color",
  "--no-ext-diff",
  "--no-textconv",
  "--no-abbrev",
];
const EMPTY = Buffer.alloc(0);
const COMMIT_HEADER = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

export class DiffTreeBatch extends LongLivedGit<Pending> {
  private buffered: Buffer = EMPTY;
  /** Sentinels carry a per-process nonce, so that no path in a diff can pass for one. */
  private nonce = "";
  private counter = 0;

  constructor(gitDir: string) {
    super(gitDir, DIFF_TREE_ARGS);
  }

  /**
   * The `-z --raw --numstat` records of `commit` against `parent` (root
   * commits: null, against the empty tree), without the commit header, as
   * bytes (file names are bytes to git; see ./path-text.ts); empty when git
   * printed nothing (no changes, or an unreadable commit).
   */
  changes(commit: string, parent: string | null): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      // The nonce is drawn when a process starts, which `send` may do: the sentinel is made inside it.
      const pending: Pending = { sentinel: EMPTY, resolve, reject };
      const request = () => {
        pending.sentinel = Buffer.from(`#swe-chat-eval-${this.nonce}-${this.counter++}\n`);
        return `${parent === null ? commit : `${commit} ${parent}`}\n${pending.sentinel.toString("utf8")}`;
      };
      if (!this.send(pending, request)) reject(new Error("git diff-tree could not be started"));
    });
  }

  protected resetStream(error?: Error): void {
    this.buffered = EMPTY;
    if (error === undefined) this.nonce = randomBytes(6).toString("hex");
  }

  protected onData(data: Buffer): void {
    const pending0 = this.queue[0];
    // A sentinel may straddle the previous chunk and this one.
    let from = pending0 === undefined ? 0 : Math.max(0, this.buffered.length - pending0.sentinel.length + 1);
    this.buffered = this.buffered.length === 0 ? data : Buffer.concat([this.buffered, data]);
    for (;;) {
      const pending = this.queue[0];
      if (pending === undefined) {
        if (this.buffered.length > 0) this.outOfStep();
        return;
      }
      const at = this.buffered.indexOf(pending.sentinel, from);
      if (at < 0) return;
      // The sentinel starts the answer (nothing printed) or follows a record's NUL; elsewhere it is inside a path.
      if (at > 0 && this.buffered[at - 1] !== 0) {
        from = at + 1;
        continue;
      }
      const answer = this.buffered.subarray(0, at);
      this.buffered = this.buffered.subarray(at + pending.sentinel.length);
      from = 0;
      this.queue.shift();
      pending.resolve(withoutHeader(answer));
      this.settled();
    }
  }
}

/** Drops the `<sha>` line diff-tree prints before a commit's records. */
function withoutHeader(answer: Buffer): Buffer {
  const nul = answer.indexOf(0);
  if (nul > 0 && COMMIT_HEADER.test(answer.toString("latin1", 0, nul))) return answer.subarray(nul + 1);
  return answer;
}
