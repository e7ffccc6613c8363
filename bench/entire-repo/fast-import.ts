/**
 * One `git fast-import` stream for the whole repository: commits are written
 * with explicit dates and marks, so one seed gives the same commit ids, and
 * the marks become shas when the stream ends.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";

export type Change = { path: string; content: string | Buffer | null } | { path: string; sha: string };

export interface Person {
  name: string;
  email: string;
}

export class FastImport {
  private readonly child;
  private readonly exited: Promise<number | null>;
  private stderr = "";
  private next = 0;
  constructor(
    dir: string,
    private readonly marksFile: string,
  ) {
    this.child = spawn("git", ["fast-import", "--quiet", "--done", `--export-marks=${marksFile}`], {
      cwd: dir,
      stdio: ["pipe", "ignore", "pipe"],
    });
    this.child.stderr.on("data", (d: Buffer) => (this.stderr += d.toString()));
    this.exited = new Promise((res) => this.child.on("close", res));
  }
  private async write(chunk: string | Buffer): Promise<void> {
    if (!this.child.stdin.write(chunk)) await once(this.child.stdin, "drain");
  }
  private async data(body: string | Buffer): Promise<void> {
    await this.write(`data ${Buffer.byteLength(body)}\n`);
    await this.write(body);
    await this.write("\n");
  }
  async commit(c: {
    ref: string;
    author: Person;
    time: number;
    authorTime?: number;
    message: string;
    from: number | null;
    merge?: number;
    changes: Change[];
  }): Promise<number> {
    const mark = ++this.next;
    await this.write(
      `commit ${c.ref}\nmark :${mark}\nauthor ${c.author.name} <${c.author.email}> ${c.authorTime ?? c.time} +0000\ncommitter ${c.author.name} <${c.author.email}> ${c.time} +0000\n`,
    );
    await this.data(c.message);
    if (c.from !== null) await this.write(`from :${c.from}\n`);
    if (c.merge !== undefined) await this.write(`merge :${c.merge}\n`);
    for (const ch of c.changes) {
      if ("sha" in ch) await this.write(`M 100644 ${ch.sha} ${ch.path}\n`);
      else if (ch.content === null) await this.write(`D ${ch.path}\n`);
      else {
        await this.write(`M 100644 inline ${ch.path}\n`);
        await this.data(ch.content);
      }
    }
    return mark;
  }
  async finish(): Promise<Map<number, string>> {
    this.child.stdin.end("done\n");
    const code = await this.exited;
    if (code !== 0) throw new Error(`git fast-import failed (${code}): ${this.stderr.slice(-2000)}`);
    const marks = new Map<number, string>();
    for (const line of readFileSync(this.marksFile, "utf8").split("\n")) {
      const m = /^:(\d+) ([0-9a-f]{40})$/.exec(line);
      if (m) marks.set(Number(m[1]), m[2]);
    }
    return marks;
  }
}
