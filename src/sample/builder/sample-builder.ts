/**
 * The builder the scenarios drive: one shared worktree, the git repository
 * (code branches by plumbing, one index file per branch), Entire's
 * checkpoints branch, the sessions' transcripts and the expected units.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { Transcript } from "../claude-code/transcript";
import { Tools } from "../claude-code/tools";
import type { Style } from "../claude-code/style";
import { Git } from "../git";
import type { Person } from "../git";
import { at, Clock } from "../seeded/clock";
import { uuidFor } from "../seeded/ids";
import { Rng } from "../seeded/rng";
import type { ExpectedUnit, SampleCheckpoint, SampleCommit, SampleSession } from "../types";
import { Workspace } from "../workspace";
import { CHECKPOINTS_BRANCH, CheckpointsBranch } from "./checkpoints-branch";
import type { EntireAttribution, EntireEntry, SessionHandle } from "./session-handle";
import { writeProjects } from "./write-projects";

export class SampleBuilder {
  readonly ws = new Workspace();
  readonly git: Git;
  readonly commits: SampleCommit[] = [];
  readonly expected: ExpectedUnit[] = [];
  readonly handles: SessionHandle[] = [];
  private readonly heads = new Map<string, string>();
  private readonly indexes = new Map<string, string>();
  private readonly committed = new Map<string, Map<string, string>>();
  private readonly entire: CheckpointsBranch;

  constructor(
    readonly repoDir: string,
    readonly projectsDir: string,
  ) {
    this.git = new Git(repoDir);
    this.entire = new CheckpointsBranch(this.git, () => this.indexFor(CHECKPOINTS_BRANCH));
  }

  get checkpoints(): SampleCheckpoint[] {
    return this.entire.checkpoints;
  }

  private indexFor(branch: string): string {
    let file = this.indexes.get(branch);
    if (!file) {
      file = join(this.repoDir, ".git", `sample-${branch.replace(/[^A-Za-z0-9]+/g, "-")}.index`);
      this.indexes.set(branch, file);
    }
    return file;
  }

  commitByName(name: string): SampleCommit {
    const c = this.commits.find((x) => x.name === name);
    if (!c) throw new Error(`sample: no commit ${name}`);
    return c;
  }

  session(o: {
    key: string;
    scenarios: number[];
    cwd: string;
    root: string;
    version: string;
    branch: string;
    slug: string | null;
    model: string;
    start: string;
    style?: Style;
    ttl?: "5m" | "1h";
    agentLabel?: string | null;
    worktree?: string;
    entireDatePrefix?: string;
    lost?: boolean;
  }): SessionHandle {
    const style = o.style ?? "2.x";
    const rng = new Rng(o.key);
    const clock = new Clock(at(o.start), rng);
    const sessionId = uuidFor(`session:${o.key}`);
    const t = new Transcript({
      key: o.key,
      sessionId,
      cwd: o.cwd,
      version: o.version,
      gitBranch: style === "1.0" ? null : o.branch,
      slug: o.slug,
      model: o.model,
      style,
      clock,
      rng,
      ttl: o.ttl ?? "1h",
      systemTokens: 17000 + rng.int(0, 6000),
    });
    const handle: SessionHandle = {
      key: o.key,
      scenarios: o.scenarios,
      t,
      tools: new Tools(this.ws, o.root, style),
      sessionId,
      entireSessionId: o.entireDatePrefix ? `${o.entireDatePrefix}-${sessionId}` : sessionId,
      agentLabel: o.agentLabel === undefined ? "Claude Code" : o.agentLabel,
      cwd: o.cwd,
      branch: o.branch,
      worktree: o.worktree ?? "",
      prompts: 0,
      lost: o.lost ?? false,
      checkpoints: [],
      startedAt: clock.iso(),
    };
    this.handles.push(handle);
    return handle;
  }

  /** Commit the worktree's versions of `paths` (absent = deleted) onto `branch`. */
  commit(o: {
    name: string;
    branch?: string;
    subject: string;
    body?: string;
    checkpoint?: string;
    author: Person;
    committer?: Person;
    atMs: number;
    authorMs?: number;
    paths: string[];
    scenarios: number[];
    note: string;
    contents?: Map<string, string | null>;
  }): SampleCommit {
    const branch = o.branch ?? "main";
    const parent = this.heads.get(branch) ?? null;
    const files = this.committed.get(branch) ?? new Map<string, string>();
    const changes: [string, string | null][] = o.paths.map((p) => {
      const content = o.contents ? (o.contents.get(p) ?? null) : (this.ws.files.get(p) ?? null);
      return [p, content];
    });
    for (const [p, content] of changes) {
      if (content === null) files.delete(p);
      else files.set(p, content);
    }
    this.committed.set(branch, files);
    const tree = this.git.tree(this.indexFor(branch), changes);
    let message = o.subject;
    if (o.body) message += `\n\n${o.body}`;
    if (o.checkpoint) message += `\n\nEntire-Checkpoint: ${o.checkpoint}`;
    message += "\n";
    const committer = o.committer ?? o.author;
    const authorMs = o.authorMs ?? o.atMs;
    const sha = this.git.commitTree(tree, parent ? [parent] : [], message, o.author, authorMs, committer, o.atMs);
    this.git.run(["update-ref", `refs/heads/${branch}`, sha]);
    this.heads.set(branch, sha);
    const c: SampleCommit = {
      name: o.name,
      sha,
      branch,
      subject: o.subject,
      author: `${o.author.name} <${o.author.email}>`,
      committer: `${committer.name} <${committer.email}>`,
      author_time: Math.floor(authorMs / 1000),
      committer_time: Math.floor(o.atMs / 1000),
      parents: parent ? [parent] : [],
      checkpoint_id: o.checkpoint ?? null,
      copy_of: null,
      scenarios: o.scenarios,
      note: o.note,
    };
    this.commits.push(c);
    return c;
  }

  /** A new branch starting at another branch's head (its files included). */
  branchFrom(branch: string, from: string): void {
    const head = this.heads.get(from);
    if (!head) throw new Error(`sample: no branch ${from}`);
    this.heads.set(branch, head);
    this.committed.set(branch, new Map(this.committed.get(from)));
    this.git.run(["read-tree", head], { env: { GIT_INDEX_FILE: this.indexFor(branch) } });
    this.git.run(["update-ref", `refs/heads/${branch}`, head]);
  }

  committedFile(branch: string, path: string): string | undefined {
    return this.committed.get(branch)?.get(path);
  }

  /** Entire's condensation after the code commit `commit` (see `CheckpointsBranch.condense`). */
  checkpoint(id: string, commit: SampleCommit, entries: EntireEntry[]): void {
    this.entire.condense(id, commit, entries);
  }

  unit(
    o: Omit<
      ExpectedUnit,
      | "session_id"
      | "commit_sha"
      | "checkpoint_id"
      | "entire_agent_lines"
      | "entire_total_committed"
      | "ambiguity_reasons"
      | "session_key"
    > & { session: SessionHandle; entire: EntireAttribution },
  ): void {
    const commit = this.commitByName(o.commit);
    const { session, entire, ...rest } = o;
    this.expected.push({
      ...rest,
      session_key: session.key,
      // As Entire's metadata records it (metrics.md §1 "Identity"): the dated form for the legacy session.
      session_id: session.entireSessionId,
      commit_sha: commit.sha,
      checkpoint_id: commit.checkpoint_id as string,
      ambiguity_reasons: o.ambiguity ? [o.ambiguity] : [],
      entire_agent_lines: entire.agent_lines,
      entire_total_committed: entire.total_committed,
    });
  }

  /** Write the transcripts into the Claude Code projects folder. */
  writeProjects(): SampleSession[] {
    return writeProjects(this.handles, this.projectsDir);
  }

  finish(): Record<string, string> {
    this.git.run(["symbolic-ref", "HEAD", "refs/heads/main"]);
    this.git.run(["reset", "-q", "--hard", "main"]);
    this.indexes.forEach((file) => rmSync(file, { force: true }));
    const branches: Record<string, string> = {};
    this.heads.forEach((sha, branch) => {
      branches[branch] = sha;
    });
    branches[CHECKPOINTS_BRANCH] = this.entire.head as string;
    return branches;
  }
}
