/**
 * Object reads over ONE long-lived `git cat-file --batch` process (and, for
 * existence and size checks, one `git cat-file --batch-check`), never one
 * process per file.
 *
 * Requests are written to git's standard input in order and git answers them
 * in the same order, so a FIFO of pending requests pairs answers with callers.
 * Answers are parsed as a byte stream: a header line `<sha> <type> <size>`,
 * then exactly `size` bytes and a newline (any size: bodies are collected in
 * chunks, never re-scanned), or `<spec> missing` / `<spec> ambiguous`.
 *
 * The processes start on the first request and are unref'd while idle, so a
 * forgotten `close()` does not keep Node alive; `close()` still ends them
 * cleanly. A process that dies (corrupt object, killed) fails only the
 * requests in flight; the next request starts a new one ({@link LongLivedGit}).
 */
import { LongLivedGit } from "./long-lived";

export interface GitObjectInfo {
  sha: string;
  type: string;
  size: number;
}

export interface GitObject extends GitObjectInfo {
  data: Uint8Array;
}

interface Pending {
  spec: string;
  resolve: (value: GitObject | GitObjectInfo | null) => void;
  reject: (error: Error) => void;
}

const HEADER = /^([0-9a-f]{40}|[0-9a-f]{64}) (\S+) (\d+)$/;
const EMPTY = Buffer.alloc(0);

/** One `git cat-file --batch` (withBody) or `--batch-check` process and its queue. */
class BatchProcess extends LongLivedGit<Pending> {
  private head: Buffer = EMPTY;
  private body: { pending: Pending; info: GitObjectInfo; remaining: number; chunks: Buffer[] } | null = null;

  constructor(
    gitDir: string,
    private readonly withBody: boolean,
  ) {
    super(gitDir, ["cat-file", withBody ? "--batch" : "--batch-check"]);
  }

  request(spec: string): Promise<GitObject | GitObjectInfo | null> {
    return new Promise((resolve, reject) => {
      if (!this.send({ spec, resolve, reject }, spec + "\n")) reject(new Error("git cat-file could not be started"));
    });
  }

  protected resetStream(error?: Error): void {
    // A body being read has left the queue already: it fails with the process.
    if (this.body !== null && error) this.body.pending.reject(error);
    this.body = null;
    this.head = EMPTY;
  }

  protected onData(data: Buffer): void {
    let off = 0;
    while (off < data.length) {
      if (this.body !== null) {
        const take = Math.min(this.body.remaining, data.length - off);
        this.body.chunks.push(data.subarray(off, off + take));
        this.body.remaining -= take;
        off += take;
        if (this.body.remaining === 0) {
          const { pending, info, chunks } = this.body;
          this.body = null;
          // The body is followed by one LF, which is the last byte collected.
          const all = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
          const bytes = new Uint8Array(info.size);
          bytes.set(all.subarray(0, info.size));
          this.settle(pending, { ...info, data: bytes });
        }
        continue;
      }
      const nl = data.indexOf(10, off);
      if (nl < 0) {
        this.head = Buffer.concat([this.head, data.subarray(off)]);
        break;
      }
      const line = (
        this.head.length ? Buffer.concat([this.head, data.subarray(off, nl)]) : data.subarray(off, nl)
      ).toString("utf8");
      this.head = EMPTY;
      off = nl + 1;
      this.onHeader(line);
    }
  }

  private onHeader(line: string): void {
    const pending = this.queue[0];
    if (pending === undefined) {
      this.outOfStep();
      return;
    }
    const m = HEADER.exec(line);
    if (m === null) {
      // `<spec> missing`, `<spec> ambiguous`, or another refusal.
      this.queue.shift();
      pending.resolve(null);
      this.idleCheck();
      return;
    }
    const info: GitObjectInfo = { sha: m[1], type: m[2], size: Number(m[3]) };
    if (!this.withBody) {
      this.queue.shift();
      pending.resolve(info);
      this.idleCheck();
      return;
    }
    this.queue.shift();
    this.body = { pending, info, remaining: info.size + 1, chunks: [] };
  }

  private settle(pending: Pending, value: GitObject): void {
    pending.resolve(value);
    this.idleCheck();
  }

  private idleCheck(): void {
    if (this.body === null) this.settled();
  }
}

/**
 * Reads git objects by spec: a sha, or `<rev>:<path>` (any revision git
 * understands). Bare and non-bare repositories alike: pass the git dir
 * (`.git` of a work tree, or the bare repository itself).
 */
export class GitObjectReader {
  private readonly batch: BatchProcess;
  private readonly check: BatchProcess;
  private closed = false;

  constructor(readonly gitDir: string) {
    this.batch = new BatchProcess(gitDir, true);
    this.check = new BatchProcess(gitDir, false);
  }

  /** The object's bytes, or null when it does not exist (or the spec is unusable). Rejects only if git itself fails. */
  async read(spec: string): Promise<Uint8Array | null> {
    const object = await this.readObject(spec);
    return object === null ? null : object.data;
  }

  /** The object with its sha, type and size, or null when missing. */
  async readObject(spec: string): Promise<GitObject | null> {
    if (!usableSpec(spec)) return null;
    if (this.closed) throw new Error("GitObjectReader is closed");
    return (await this.batch.request(spec)) as GitObject | null;
  }

  /** Type and size without reading the body (`--batch-check`), or null when missing. */
  async info(spec: string): Promise<GitObjectInfo | null> {
    if (!usableSpec(spec)) return null;
    if (this.closed) throw new Error("GitObjectReader is closed");
    return (await this.check.request(spec)) as GitObjectInfo | null;
  }

  /** Ends both processes after the requests already queued are answered. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([this.batch.close(), this.check.close()]);
  }
}

/** cat-file reads one spec per line: a spec with a line break cannot be asked for. */
function usableSpec(spec: string): boolean {
  return spec.length > 0 && !spec.includes("\n") && !spec.includes("\r") && !spec.includes("\0");
}
