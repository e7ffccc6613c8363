/**
 * Attribution with method `patch-match` (metrics.md §4): no repository and
 * no file states, only the agent's tool inputs and the commit's patch.
 *
 * 1. Agent lines. The session's file-changing calls (success true, or
 *    unknown where the log has no results; `success: false` skipped), in
 *    result order, are replayed ON EACH OTHER per file, without a base:
 *    - while nothing is known of a file, each string edit is a FRAGMENT of it
 *      (its `new_string`): lines the edit inserts (lines of the new text with
 *      no equal line, as a multiset, in the old text) are agent lines, its
 *      context lines are of unknown origin. An edit whose `old_string` lies
 *      inside an earlier fragment is applied to that fragment (exact
 *      self-overwrite); otherwise each line the edit deletes (old lines with
 *      no equal new line) removes one agent line with the same text from the
 *      fragments (the agent overwrote its own line), if there is one;
 *    - a whole-file text (`Write` content, a post-image, a pre-image, a patch
 *      that creates the file, a delete) makes the file KNOWN: from then on
 *      edits are applied to its full text. Each new whole text takes its
 *      owners by MULTISET from the text before (positions play no part in
 *      this method): a line equal to a line still there keeps that line's
 *      owner, the others are the call's (and count as produced);
 *    - an edit that does not apply to a known text means the file changed
 *      outside the agent's calls: the text becomes a fragment again
 *      (`outside_changes` + 1) and the edit is applied as above;
 *    - `apply_patch` / unified-diff edits are applied hunk by hunk the same
 *      way (a hunk's context and `-` lines are its old text);
 *    - notebook cell edits cannot be replayed (`unreplayable_calls`).
 * 2. Matching. Per file, the agent lines still present are matched as a
 *    MULTISET against the lines the commit's patch adds to that file (`+`
 *    lines of its hunks; a trailing `\r` ignored; blank lines count, as in
 *    metrics.md §2): survived = Σ over distinct texts of
 *    min(agent copies, added copies).
 *
 * Meaning of the counts under this method:
 * - `agent_lines_produced`: Σ lines each call inserted, relative to the text
 *   it replaced: on a known file, the lines of the new text with no equal
 *   line (multiset) in the text before; on a file known only in fragments,
 *   the same per edit (or hunk) from old_string to new_string, and for a
 *   Write every line of its content except lines equal to agent lines
 *   already present. Positions never matter: no Myers diff is run.
 * - `agent_lines_final`: agent-owned lines still present after the replay,
 *   all files (including files the commit does not change).
 * - `agent_lines_survived`: the multiset matches above, in files the commit
 *   changes. Position is ignored: an agent line that the person deleted and
 *   retyped identically counts as the agent's.
 * - `human_lines`: the other added lines (there is no `outside` under this
 *   method: without file states a shell write or formatter is
 *   indistinguishable from a person); `outside_lines` is 0.
 * - `total_committed_lines`: `+` lines of the patch (git's own diff, so it
 *   equals numstat additions for text files, not a Myers recount).
 */
import type { UnitAttribution } from "./replay-unit";
import type { FileAttribution } from "./at-commit";
import type { DiagnosticSink, FileEdit, Session, StringEdit, ToolCall } from "../model";
import { addedLines, hunks, pathMapping } from "./patch-match-text";
import {
  agentOwner,
  applyToolStringEdits,
  applyUnifiedDiff,
  BASE,
  type FileState,
  fileState,
  HUMAN,
  type LineOwner,
  OUTSIDE,
  stateFromText,
} from "../replay";

/** One file of the commit: its repo-relative path and unified diff (hunks), null for a binary file. */
export interface PatchMatchFile {
  path: string;
  patch: string | null;
}

export interface PatchMatchOptions {
  /** 0-based transcript line where the unit's slice begins: calls whose result lies before it are left out. */
  transcriptStart?: number;
  /** Names the unit in diagnostics. */
  label?: string;
  /**
   * Replays kept between the units of one session: the replay depends only
   * on the calls of the slice and on where the repository root is, so units
   * with the same slice and root share it (its diagnostics are written once).
   */
  replays?: Map<string, PatchMatchReplay>;
}

/** What the matching needs of a replay: per repo path, lines produced and the agent lines still present. */
export interface PatchMatchReplay {
  files: { path: string; produced: number; agent: string[] }[];
  outsideRepo: number;
  unreplayable: number;
  outsideChanges: number;
}

interface FileTrack {
  path: string;
  /** The whole text, once a call has shown it. */
  known: FileState | null;
  /** Pieces of the file seen through edits while it is not known. */
  fragments: FileState[];
  produced: number;
}

export { addedLines } from "./patch-match-text";

/** Runs patch-match for one unit (see the module comment); never throws on bad input. */
export function patchMatch(
  session: Session,
  patches: readonly PatchMatchFile[],
  sink: DiagnosticSink,
  options: PatchMatchOptions = {},
): UnitAttribution {
  const start = options.transcriptStart ?? 0;
  const prefix = options.label ? `${options.label}: ` : "";
  const calls = session.tool_calls
    .filter((c) => c.success !== false && c.file_edits.length > 0 && (c.result_record ?? c.record) > start)
    .map((c, order) => ({ c, order }))
    .sort((a, b) => (a.c.result_record ?? a.c.record) - (b.c.result_record ?? b.c.record) || a.order - b.order)
    .map(({ c }) => c);
  const patchPaths = new Set(patches.map((p) => p.path));
  const mapping = pathMapping(calls, session.cwds, patchPaths);
  const key = `${start}|${mapping.root}`;
  let replay = options.replays?.get(key);
  if (!replay) {
    replay = replayInputs(calls, mapping.map, sink, prefix);
    options.replays?.set(key, replay);
  }

  const byPath = new Map<string, FileAttribution>();
  const row = (path: string): FileAttribution => {
    let r = byPath.get(path);
    if (!r) byPath.set(path, (r = { path, produced: 0, final: 0, survived: 0, human: 0, outside: 0, committed: 0 }));
    return r;
  };
  let produced = 0;
  const agentByPath = new Map<string, string[]>();
  for (const file of replay.files) {
    const r = row(file.path);
    r.produced = file.produced;
    r.final = file.agent.length;
    produced += file.produced;
    agentByPath.set(file.path, file.agent);
  }
  for (const { path, patch } of patches) {
    if (patch === null) continue; // binary: no lines (metrics.md §2)
    const added = addedLines(patch);
    const r = row(path);
    const agent = countTexts(agentByPath.get(path) ?? []);
    for (const line of added) {
      r.committed++;
      const left = agent.get(line) ?? 0;
      if (left > 0) {
        agent.set(line, left - 1);
        r.survived++;
      } else r.human++;
    }
  }
  const files = [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const sum = (key: "final" | "survived" | "human" | "committed") => files.reduce((s, f) => s + f[key], 0);
  return {
    agent_lines_produced: produced,
    agent_lines_final: sum("final"),
    agent_lines_survived: sum("survived"),
    human_lines: sum("human"),
    outside_lines: 0,
    total_committed_lines: sum("committed"),
    files,
    unreplayable_calls: replay.unreplayable,
    outside_changes: replay.outsideChanges,
    files_outside_repo: replay.outsideRepo,
  };
}

/** Replays the calls on each other per file (see the module comment). */
function replayInputs(
  calls: readonly ToolCall[],
  toRepoPath: (logged: string) => string | null,
  sink: DiagnosticSink,
  prefix: string,
): PatchMatchReplay {
  const unknownOutcome = calls.filter((c) => c.success === null).length;
  if (unknownOutcome > 0)
    sink.info(
      "patch-match-unknown-outcome",
      `${prefix}${unknownOutcome} file-changing call(s) have no logged result: counted as applied`,
    );
  const tracks = new Map<string, FileTrack>();
  const outsideRepo = new Set<string>();
  const unreplayableCalls = new Set<string>();
  let outsideChanges = 0;
  for (const call of calls) {
    for (const edit of call.file_edits) {
      const path = toRepoPath(edit.path);
      if (path === null) {
        if (!outsideRepo.has(edit.path))
          sink.info(
            "path-outside-repo",
            `${prefix}${call.name} edited ${edit.path}, outside the repository: ignored`,
            call.record,
          );
        outsideRepo.add(edit.path);
        continue;
      }
      let track = tracks.get(path);
      if (!track) tracks.set(path, (track = { path, known: null, fragments: [], produced: 0 }));
      const outcome = applyCall(track, call, edit);
      if (outcome === "unreplayable") {
        unreplayableCalls.add(call.id); // a call that edits two files counts once
        sink.warn(
          "edit-unreplayable",
          `${prefix}${call.name} ${call.id} on ${path} cannot be replayed (${edit.kind} without its text)`,
          call.record,
        );
      } else if (outcome === "outside") {
        outsideChanges++;
        sink.info(
          "outside-change",
          `${prefix}${path} changed outside the agent's edits before ${call.name} ${call.id}`,
          call.record,
        );
      }
    }
  }
  const files = [...tracks.values()].map((t) => ({ path: t.path, produced: t.produced, agent: agentLines(t) }));
  return { files, outsideRepo: outsideRepo.size, unreplayable: unreplayableCalls.size, outsideChanges };
}

// ---- replay without a base ---------------------------------------------------

type Outcome = "ok" | "outside" | "unreplayable";

function applyCall(track: FileTrack, call: ToolCall, edit: FileEdit): Outcome {
  const owner: LineOwner = edit.user_modified ? HUMAN : agentOwner(call.id);
  let outcome: Outcome = "ok";
  if (edit.pre_image !== null) {
    if (track.known !== null && track.known.text !== edit.pre_image) {
      track.known = retext(track.known, edit.pre_image, OUTSIDE).state;
      outcome = "outside";
    } else if (track.known === null) track.known = adopt(track, edit.pre_image, BASE).state;
  }
  if (edit.kind === "delete") {
    track.known = stateFromText("", BASE);
    track.fragments = [];
    return outcome;
  }
  if (edit.post_image !== null) {
    setWhole(track, edit.post_image, owner);
    return outcome;
  }
  if (edit.edits && edit.edits.length > 0) {
    if (track.known !== null) {
      const applied = applyToolStringEdits(call.name, track.known.text, edit.edits);
      if (applied.ok) {
        setWhole(track, applied.text, owner);
        return outcome;
      }
      toFragments(track);
      outcome = "outside";
    }
    for (const e of edit.edits) editFragments(track, e, owner, call.name);
    return outcome;
  }
  if (edit.patch !== null) {
    if (track.known !== null) {
      const applied = applyUnifiedDiff(track.known.text, edit.patch);
      if (applied.ok) {
        setWhole(track, applied.text, owner);
        return outcome;
      }
      toFragments(track);
      outcome = "outside";
    }
    for (const h of hunks(edit.patch)) editFragments(track, h, owner, null);
    return outcome;
  }
  return "unreplayable";
}

/**
 * The file's whole text becomes `text`. Positions play no part in this
 * method, so owners move by multiset, not by a line diff: each line of the
 * new text takes the owner of an equal line of the old text (or of the
 * fragments) when one is left, else `owner`; only those count as produced.
 * (A Myers diff would also count moved lines as new, and costs O(N·D) on
 * rewrites.)
 */
function setWhole(track: FileTrack, text: string, owner: LineOwner): void {
  if (track.known !== null) track.fragments = [track.known, ...track.fragments];
  const adopted = adopt(track, text, owner, true);
  track.known = adopted.state;
  if (owner.origin === "agent") track.produced += adopted.fresh;
}

/**
 * A whole text replacing the fragments (and the known text, put first among
 * them by `setWhole`): lines equal to agent lines still present keep the
 * agent owner; with `keepAll`, lines equal to other known lines keep theirs
 * too (they are not new).
 */
function adopt(track: FileTrack, text: string, owner: LineOwner, keepAll = false): { state: FileState; fresh: number } {
  const pool = new Map<string, LineOwner[]>();
  for (const frag of track.fragments) {
    for (let i = 0; i < frag.lines.length; i++) {
      if (!keepAll && frag.owners[i].origin !== "agent") continue;
      const line = frag.lines[i];
      let list = pool.get(line);
      if (!list) pool.set(line, (list = []));
      list.push(frag.owners[i]);
    }
  }
  const state = stateFromText(text, owner);
  const owners = state.owners.slice();
  let fresh = 0;
  for (let i = 0; i < state.lines.length; i++) {
    const kept = pool.get(state.lines[i])?.shift();
    if (kept) owners[i] = kept;
    else fresh++;
  }
  track.fragments = [];
  return { state: { ...state, owners }, fresh };
}

function toFragments(track: FileTrack): void {
  if (track.known !== null) track.fragments = [track.known];
  track.known = null;
}

/** One string edit on a file known only through fragments. */
/** `tool`: the call's name, whose rules re-apply a string edit inside a fragment (null for patch hunks: plain text). */
function editFragments(track: FileTrack, e: StringEdit, owner: LineOwner, tool: string | null): void {
  const count = (n: number) => {
    if (owner.origin === "agent") track.produced += n;
  };
  if (e.old_string === "" && track.fragments.length === 0) {
    // Creates the file (an empty old text on a file never seen; an "Add File" patch).
    const created = retext(stateFromText("", BASE), e.new_string, owner);
    track.known = created.state;
    count(created.fresh);
    return;
  }
  if (e.old_string !== "") {
    for (let k = track.fragments.length - 1; k >= 0; k--) {
      const frag = track.fragments[k];
      if (!frag.text.includes(e.old_string)) continue;
      const byTool = tool !== null ? applyToolStringEdits(tool, frag.text, [e]) : null;
      const next = byTool?.ok
        ? byTool.text
        : e.replace_all
          ? frag.text.split(e.old_string).join(e.new_string)
          : replaceFirst(frag.text, e.old_string, e.new_string);
      const moved = retext(frag, next, owner);
      track.fragments[k] = moved.state;
      count(moved.fresh);
      return;
    }
  }
  // Not inside a fragment: the edit replaced text we never saw, or overlapping pieces of several fragments.
  // Lines of the old text with no equal line (multiset) in the new one are deleted: each removes one agent line of that text.
  const piece = retext(stateFromText(e.old_string, BASE), e.new_string, owner);
  for (const line of piece.gone) removeAgentLine(track, line);
  track.fragments.push(piece.state);
  count(piece.fresh);
}

/**
 * `state` becomes `text`, owners moved by multiset: a new line takes the
 * owner of an equal old line still unclaimed, else `owner` (fresh); `gone`
 * are the old lines no new line claimed.
 */
function retext(state: FileState, text: string, owner: LineOwner): { state: FileState; fresh: number; gone: string[] } {
  const pool = new Map<string, number[]>();
  state.lines.forEach((line, i) => {
    let list = pool.get(line);
    if (!list) pool.set(line, (list = []));
    list.push(i);
  });
  const next = stateFromText(text, owner);
  const owners = next.owners.slice();
  let fresh = 0;
  for (let i = 0; i < next.lines.length; i++) {
    const j = pool.get(next.lines[i])?.shift();
    if (j !== undefined) owners[i] = state.owners[j];
    else fresh++;
  }
  const gone: string[] = [];
  for (const [line, rest] of pool) for (let n = 0; n < rest.length; n++) gone.push(line);
  return { state: { ...next, owners }, fresh, gone };
}

/** Removes one agent-owned line with this text, latest fragment first. */
function removeAgentLine(track: FileTrack, text: string): void {
  for (let k = track.fragments.length - 1; k >= 0; k--) {
    const frag = track.fragments[k];
    for (let j = frag.lines.length - 1; j >= 0; j--) {
      if (frag.lines[j] !== text || frag.owners[j].origin !== "agent") continue;
      const lines = frag.lines.filter((_, x) => x !== j);
      const owners = frag.owners.filter((_, x) => x !== j);
      track.fragments[k] = fileState(lines.join("\n"), lines, owners);
      return;
    }
  }
}

function replaceFirst(text: string, search: string, replacement: string): string {
  const at = text.indexOf(search);
  return text.slice(0, at) + replacement + text.slice(at + search.length);
}

function agentLines(track: FileTrack): string[] {
  const out: string[] = [];
  const take = (s: FileState) => s.lines.forEach((line, i) => s.owners[i].origin === "agent" && out.push(line));
  if (track.known !== null) take(track.known);
  for (const frag of track.fragments) take(frag);
  return out;
}

function countTexts(lines: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const l of lines) m.set(l, (m.get(l) ?? 0) + 1);
  return m;
}
