import type { FileEdit, ToolCall } from "../model";
import { postImageOf } from "./apply-edit";
import {
  agentOwner,
  BASE,
  countOwned,
  type FileState,
  fileState,
  HUMAN,
  type LineOwner,
  OUTSIDE,
  stateFromText,
  transition,
} from "./file-state";

/** One successful file edit, its path already repo-relative, in replay order. */
export interface ReplayStep {
  call: ToolCall;
  edit: FileEdit;
  path: string;
  /** A rename (`edit.moved_from`, repo-relative): this path's lines move to `path` before the edit applies. */
  from?: string;
}

export interface ReplayIssue {
  code: "edit-unreplayable" | "outside-change";
  call: string;
  path: string;
  record: number | null;
  message: string;
}

export interface FileReplay {
  path: string;
  state: FileState;
  produced: number;
}

export interface ReplayResult {
  files: Map<string, FileReplay>;
  /** Σ lines inserted by successful agent calls (metrics.md §4 `agent_lines_produced`). */
  produced: number;
  /** Calls with at least one edit that could not be replayed (a call editing two files counts once). */
  unreplayable: number;
  outsideChanges: number;
  issues: ReplayIssue[];
}

/** Who wrote one agent line (metrics.md §1b): the session, the call, and its index among the lines that call inserted. */
export interface LineIdentity {
  session: string;
  call: string;
  index: number;
}

/**
 * Replays successful file edits on top of a base, one step at a time
 * (metrics.md §3): the state can be read between steps (a group's commits,
 * §1b). With `identities`, every inserted agent line gets an owner object of
 * its own, and the map tells which session and call wrote it: equal lines keep
 * their owner through later diffs, so the object is the line's identity.
 */
export class Replayer {
  readonly files = new Map<string, FileReplay>();
  readonly issues: ReplayIssue[] = [];
  produced = 0;
  outsideChanges = 0;
  private readonly unreplayableCalls = new Set<string>();
  private readonly insertedByCall = new Map<string, number>();

  constructor(
    private readonly baseText: (path: string) => string | null,
    private readonly identities?: Map<LineOwner, LineIdentity>,
  ) {}

  /** The file's replayed state, tracked from its base on first use. */
  tracked(path: string): FileReplay {
    let file = this.files.get(path);
    if (!file) {
      file = { path, state: stateFromText(this.baseText(path) ?? "", BASE), produced: 0 };
      this.files.set(path, file);
    }
    return file;
  }

  /** Applies one step; `author` names the session whose call it is (for identities and per-session counts). */
  apply(step: ReplayStep, author = ""): void {
    const { call, edit, path, from } = step;
    const callKey = author === "" ? call.id : `${author}\u0000${call.id}`;
    if (from !== undefined) {
      // The lines keep their provenance on the new path (base lines stay base, the agent's stay the agent's);
      // the old path is left empty, and what it produced is counted where its lines now are.
      const source = this.tracked(from);
      this.files.set(path, { path, state: source.state, produced: source.produced });
      this.files.set(from, { path: from, state: stateFromText("", BASE), produced: 0 });
    }
    const file = this.tracked(path);
    // 1. Pre-image: a difference means someone else changed the file in between.
    if (edit.pre_image !== null && edit.pre_image !== file.state.text) {
      const moved = transition(file.state, edit.pre_image, OUTSIDE);
      file.state = moved.state;
      if (moved.inserted > 0 || moved.deleted > 0) {
        this.outsideChanges++;
        this.issues.push({
          code: "outside-change",
          call: call.id,
          path,
          record: call.record,
          message: `${path} changed outside the agent's edits before ${call.name} ${call.id} (+${moved.inserted} −${moved.deleted} lines)`,
        });
      }
    }
    // 2. Post-image.
    const post = postImageOf(edit, file.state.text, call.name);
    if (!post.ok) {
      this.unreplayableCalls.add(callKey);
      this.issues.push({
        code: "edit-unreplayable",
        call: call.id,
        path,
        record: call.record,
        message: `${call.name} ${call.id} on ${path} cannot be replayed: ${post.reason}; the file resynchronises at the next pre-image or at the commit`,
      });
      return;
    }
    // 3. Diff pre → post; inserted lines are the agent's (or the person's, when they rewrote the proposal).
    const owner = edit.user_modified ? HUMAN : agentOwner(call.id);
    const moved = transition(file.state, post.text, owner);
    file.state =
      this.identities && !edit.user_modified ? this.identify(moved.state, owner, author, callKey) : moved.state;
    if (!edit.user_modified) {
      this.produced += moved.inserted;
      file.produced += moved.inserted;
    }
  }

  /** Gives each line `owner` inserted an owner object of its own, registered with its identity. */
  private identify(state: FileState, owner: LineOwner, author: string, callKey: string): FileState {
    const owners = state.owners.slice();
    let index = this.insertedByCall.get(callKey) ?? 0;
    for (let j = 0; j < owners.length; j++) {
      if (owners[j] !== owner) continue;
      const own = agentOwner(owner.call ?? "");
      this.identities!.set(own, { session: author, call: owner.call ?? "", index: index++ });
      owners[j] = own;
    }
    this.insertedByCall.set(callKey, index);
    return fileState(state.text, state.lines, owners, state.starts);
  }

  /** Calls with at least one edit that could not be replayed, by author (the call id alone without one). */
  unreplayableOf(author = ""): number {
    if (author === "") return this.unreplayableCalls.size;
    let n = 0;
    for (const key of this.unreplayableCalls) if (key.startsWith(`${author}\u0000`)) n++;
    return n;
  }

  result(): ReplayResult {
    return {
      files: this.files,
      produced: this.produced,
      unreplayable: this.unreplayableCalls.size,
      outsideChanges: this.outsideChanges,
      issues: this.issues,
    };
  }
}

/**
 * Replays a session's successful file edits on top of the unit's base
 * (metrics.md §3). `baseText(path)` is the file at the unit's base, null when
 * it did not exist.
 */
export function replayEdits(steps: readonly ReplayStep[], baseText: (path: string) => string | null): ReplayResult {
  const replayer = new Replayer(baseText);
  for (const step of steps) replayer.apply(step);
  return replayer.result();
}

/** `agent_lines_final`: agent-owned lines in the final replayed state, all files. */
export function agentLinesFinal(result: ReplayResult): number {
  let n = 0;
  for (const file of result.files.values()) n += countOwned(file.state, "agent");
  return n;
}
