import { countOccurrences, replaceOnce } from "./text";

/** The simulated worktree, shared by the agent's tools, the person's hand edits and the commits. */
export class Workspace {
  /** Repo-relative path → content of the (shared) worktree. */
  readonly files = new Map<string, string>();
  /** Absolute path → content, for files outside the repository (plans). */
  readonly outside = new Map<string, string>();

  text(rel: string): string {
    const t = this.files.get(rel);
    if (t === undefined) throw new Error(`sample: no file ${rel}`);
    return t;
  }

  /** A person's (or a tool's) change outside any logged agent edit. */
  change(rel: string, oldString: string, newString: string): void {
    const before = this.text(rel);
    if (countOccurrences(before, oldString) !== 1) throw new Error(`sample: edit of ${rel} does not match once`);
    this.files.set(rel, replaceOnce(before, oldString, newString));
  }
}
