import type { FileEdit, ToolCall } from "../model";
import { postImageOf } from "./apply-edit";
import { agentOwner, BASE, countOwned, type FileState, HUMAN, OUTSIDE, stateFromText, transition } from "./file-state";

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

/**
 * Replays a session's successful file edits on top of the unit's base
 * (metrics.md §3). `baseText(path)` is the file at the unit's base, null when
 * it did not exist.
 */
export function replayEdits(steps: readonly ReplayStep[], baseText: (path: string) => string | null): ReplayResult {
  const files = new Map<string, FileReplay>();
  const issues: ReplayIssue[] = [];
  let produced = 0;
  const unreplayableCalls = new Set<string>();
  let outsideChanges = 0;

  const tracked = (path: string): FileReplay => {
    let file = files.get(path);
    if (!file) {
      file = { path, state: stateFromText(baseText(path) ?? "", BASE), produced: 0 };
      files.set(path, file);
    }
    return file;
  };
  for (const { call, edit, path, from } of steps) {
    if (from !== undefined) {
      // The lines keep their provenance on the new path (base lines stay base, the agent's stay the agent's);
      // the old path is left empty, and what it produced is counted where its lines now are.
      const source = tracked(from);
      files.set(path, { path, state: source.state, produced: source.produced });
      files.set(from, { path: from, state: stateFromText("", BASE), produced: 0 });
    }
    const file = tracked(path);
    // 1. Pre-image: a difference means someone else changed the file in between.
    if (edit.pre_image !== null && edit.pre_image !== file.state.text) {
      const moved = transition(file.state, edit.pre_image, OUTSIDE);
      file.state = moved.state;
      if (moved.inserted > 0 || moved.deleted > 0) {
        outsideChanges++;
        issues.push({
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
      unreplayableCalls.add(call.id);
      issues.push({
        code: "edit-unreplayable",
        call: call.id,
        path,
        record: call.record,
        message: `${call.name} ${call.id} on ${path} cannot be replayed: ${post.reason}; the file resynchronises at the next pre-image or at the commit`,
      });
      continue;
    }
    // 3. Diff pre → post; inserted lines are the agent's (or the person's, when they rewrote the proposal).
    const owner = edit.user_modified ? HUMAN : agentOwner(call.id);
    const moved = transition(file.state, post.text, owner);
    file.state = moved.state;
    if (!edit.user_modified) {
      produced += moved.inserted;
      file.produced += moved.inserted;
    }
  }
  return { files, produced, unreplayable: unreplayableCalls.size, outsideChanges, issues };
}

/** `agent_lines_final`: agent-owned lines in the final replayed state, all files. */
export function agentLinesFinal(result: ReplayResult): number {
  let n = 0;
  for (const file of result.files.values()) n += countOwned(file.state, "agent");
  return n;
}
