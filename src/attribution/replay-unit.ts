import { attributeAtCommit, type CommitAttribution, type CommittedFile } from "./at-commit";
import { callSeqs, type OnCommittedLine } from "./line-ranges";
import { DiagnosticSink, type Session, type ToolCall } from "../model";
import { isBinaryText, type LineOwner, makePathMapper, type ReplayStep, replayEdits, resolveSymlinks } from "../replay";
import { chooseLanding, commitViewOfLinks, isLinkItself, landingCandidates, type UnitLinks } from "./unit-links";

/** What the replay of one unit needs from the repository. */
export interface UnitFiles {
  /** Files the commit changes (first-parent diff); binary files have no lines. */
  changed: readonly { path: string; binary: boolean }[];
  /** File text at the unit's base (first parent), null when absent. */
  readBase(path: string): Promise<string | null>;
  /** File text at the commit, null when absent. */
  readCommit(path: string): Promise<string | null>;
  /** Whether a repo-relative path exists at the base or at the commit (for path mapping). */
  exists(path: string): boolean;
  /** The symbolic links of the base and commit trees, when either has any (./unit-links.ts). */
  links?: UnitLinks;
  /** Names the unit in diagnostics (e.g. `commit 1a2b3c4d`), since one session's calls are replayed once per unit. */
  label?: string;
}

export interface UnitAttribution extends CommitAttribution {
  unreplayable_calls: number;
  outside_changes: number;
  files_outside_repo: number;
}

/** The first line of a Git LFS pointer file (git-lfs.github.com/spec/v1). */
const LFS_POINTER = "version https://git-lfs.github.com/spec/v1\n";

/**
 * Replays the successful file edits of one session's checkpoint slice on the
 * unit's base and attributes the commit's added lines (metrics.md §3–4).
 * `transcriptStart` is the 0-based line where the slice begins: calls whose
 * result lies before it belong to earlier checkpoints.
 *
 * The async part only reads files; the work is in plain synchronous helpers
 * with loops: V8 compiles an async function with everything it inlines as one
 * unit, and recompiles all of it whenever a new object shape reaches it (each
 * session runs it once, so that happened about ten times per process, 70 ms
 * of compiling each).
 */
export async function attributeUnit(
  session: Session,
  transcriptStart: number,
  files: UnitFiles,
  sink: DiagnosticSink,
  /** Every committed line's owner, when the caller gathers lines (`line_ranges`). */
  onLine?: OnCommittedLine,
  model: string | null = null,
): Promise<UnitAttribution> {
  const prefix = files.label ? `${files.label}: ` : "";
  const changedPaths = new Set(files.changed.map((f) => f.path));
  const landing = files.links ? await landingOf(session, transcriptStart, files, files.links, changedPaths) : undefined;
  const plan = planReplay(session, transcriptStart, files, changedPaths, prefix, sink, landing);
  const paths = basePaths(plan.steps, files.changed);
  const bases = new Map<string, string | null>();
  for (let i = 0; i < paths.length; i++) bases.set(paths[i], await files.readBase(paths[i]));
  const commits = new Map<string, string | null>();
  const changed: { path: string; binary: boolean }[] = [];
  for (const file of files.changed) {
    const text = await files.readCommit(file.path);
    // git calls a file binary when either side has a NUL in its first 8000 bytes; metrics.md §2 asks it of each
    // state, so a file that turns from binary to text has the lines of its committed text (and a base of none).
    const binary = file.binary && (text === null || isBinaryText(text));
    if (!binary) commits.set(file.path, text);
    if (text?.startsWith(LFS_POINTER)) {
      sink.info(
        "git-lfs-pointer",
        `${prefix}${file.path} is a Git LFS pointer in the commit: its committed lines are the pointer's (as git counts them), not the stored file's, so an agent's edits of the real file do not survive here`,
      );
    }
    changed.push(binary === file.binary ? file : { path: file.path, binary });
  }
  return replayAndAttribute(plan, bases, commits, changed, prefix, sink, onLine && ownerLabels(session, model, onLine));
}

/** Turns the replay's line owners into the labels of `line_ranges` (a base line kept by the commit is the person's). */
function ownerLabels(
  session: Session,
  model: string | null,
  onLine: OnCommittedLine,
): (path: string, line: number, owner: LineOwner) => void {
  const seqs = callSeqs(session);
  return (path, line, owner) => {
    if (owner.origin === "agent")
      onLine(path, line, { owner: "agent", seq: seqs.get(owner.call ?? "") ?? null, model });
    else onLine(path, line, { owner: owner.origin === "outside" ? "outside" : "human", seq: null, model: null });
  };
}

interface ReplayPlan {
  steps: ReplayStep[];
  outsideRepo: number;
}

/** The successful file-changing calls of the slice, in the order of their results. */
export function callsInSlice(session: Session, transcriptStart: number): ToolCall[] {
  const picked: { c: ToolCall; at: number; order: number }[] = [];
  const all = session.tool_calls;
  for (let i = 0; i < all.length; i++) {
    const c = all[i];
    if (c.success !== true || c.file_edits.length === 0) continue;
    const at = c.result_record ?? c.record;
    if (at > transcriptStart) picked.push({ c, at, order: picked.length });
  }
  picked.sort(byResultThenOrder);
  const out: ToolCall[] = [];
  for (let i = 0; i < picked.length; i++) out.push(picked[i].c);
  return out;
}

function byResultThenOrder(a: { at: number; order: number }, b: { at: number; order: number }): number {
  return a.at - b.at || a.order - b.order;
}

/** Where the edits of a repo path land (`keepLast`: a removal or a rename's old path, which acts on a link itself). */
interface Landing {
  resolve(path: string, keepLast: boolean): string | null;
  /** The candidates it chose among (one: no link on the way). */
  candidates(path: string, keepLast: boolean): readonly (string | null)[];
}

/**
 * Edits meet symbolic links: a first, quiet planning pass learns which repo paths the edits name and the
 * first pre-image of each, then the base texts of the places each may land on are read, so that the
 * pre-image can pick the one the tool really read (./unit-links.ts).
 */
async function landingOf(
  session: Session,
  transcriptStart: number,
  files: UnitFiles,
  links: UnitLinks,
  changed: ReadonlySet<string>,
): Promise<Landing> {
  const key = (path: string, keepLast: boolean) => `${keepLast ? 1 : 0}${path}`;
  const candidates = new Map<string, (string | null)[]>();
  const firstPre = new Map<string, string>();
  const probe = planReplay(
    session,
    transcriptStart,
    files,
    changed,
    "",
    new DiagnosticSink(session.source),
    undefined,
    links,
  );
  for (const step of probe.steps) {
    const named: [string, boolean][] = [[step.path, step.edit.kind === "delete"]];
    if (step.from !== undefined) named.push([step.from, true]);
    for (const [path, keepLast] of named) {
      const k = key(path, keepLast);
      if (!candidates.has(k)) candidates.set(k, landingCandidates(path, links, keepLast));
      // The pre-image says which file the tool read: for an edit in place (not a removal, not a rename).
      if (
        path === step.path &&
        !keepLast &&
        step.from === undefined &&
        step.edit.pre_image !== null &&
        !firstPre.has(k)
      )
        firstPre.set(k, step.edit.pre_image);
    }
  }
  const texts = new Map<string, string | null>();
  for (const list of candidates.values()) {
    if (list.length < 2) continue;
    for (const c of list) if (c !== null && !texts.has(c)) texts.set(c, await files.readBase(c));
  }
  const listOf = (path: string, keepLast: boolean) =>
    candidates.get(key(path, keepLast)) ?? landingCandidates(path, links, keepLast);
  return {
    candidates: listOf,
    resolve: (path, keepLast) =>
      chooseLanding(path, listOf(path, keepLast), firstPre.get(key(path, keepLast)) ?? null, (c) => texts.get(c)),
  };
}

function planReplay(
  session: Session,
  transcriptStart: number,
  files: UnitFiles,
  changed: ReadonlySet<string>,
  prefix: string,
  sink: DiagnosticSink,
  landing?: Landing,
  links: UnitLinks | undefined = files.links,
  calls: readonly ToolCall[] = callsInSlice(session, transcriptStart),
): ReplayPlan {
  const logged: string[] = [];
  for (const call of calls) {
    for (const edit of call.file_edits) {
      logged.push(edit.path);
      if (edit.moved_from) logged.push(edit.moved_from);
    }
  }
  // A path under a folder link is in neither tree, but it is evidence for the root when the link leads to a file that is.
  const viaLinks = links ? commitViewOfLinks(links) : undefined;
  const exists = (p: string): boolean => {
    if (files.exists(p)) return true;
    if (viaLinks === undefined) return false;
    const resolved = resolveSymlinks(p, viaLinks);
    return resolved !== null && resolved !== p && files.exists(resolved);
  };
  // Ties between candidate roots go to the one whose paths the commit changes (a monorepo package's package.json).
  const mapper = makePathMapper(logged, session.cwds, exists, (p) => changed.has(p));
  const noted = new Set<string>();
  const toRepoPath = (logged: string, keepLast: boolean, record: number): string | null => {
    const mapped = mapper.toRepoPath(logged);
    if (mapped === null || landing === undefined) return mapped;
    const resolved = landing.resolve(mapped, keepLast);
    const candidates = landing.candidates(mapped, keepLast);
    if (candidates.length > 1 && !noted.has(mapped)) {
      noted.add(mapped);
      const what =
        links !== undefined && isLinkItself(mapped, links) ? "is a symbolic link" : "passes through a symbolic link";
      sink.info(
        "edit-through-symlink",
        resolved === null
          ? `${prefix}${mapped} ${what} that leads outside the repository (or loops): edits through it are ignored`
          : resolved === mapped
            ? `${prefix}${mapped} ${what} in one of the unit's trees, but its edits are replayed on ${mapped} itself (the commit holds it as a file, or the agent's pre-image is its own text)`
            : `${prefix}${mapped} ${what} in the repository: edits through it are replayed on ${resolved}${resolved !== candidates[0] ? ` (the agent's pre-image matches it, not ${candidates[0] ?? "the commit's link"})` : ""}`,
        record,
      );
    }
    return resolved;
  };
  const steps: ReplayStep[] = [];
  const outside = new Set<string>();
  for (const call of calls) {
    for (const edit of call.file_edits) {
      const path = toRepoPath(edit.path, edit.kind === "delete", call.record);
      if (path === null) {
        if (!outside.has(edit.path)) {
          outside.add(edit.path);
          const throughLink = mapper.toRepoPath(edit.path) !== null;
          sink.info(
            "path-outside-repo",
            `${prefix}${call.name} edited ${edit.path}, ${throughLink ? "through a symbolic link that leads outside the repository" : `outside the repository${mapper.root ? ` (${mapper.root})` : ""}`}: ignored`,
            call.record,
          );
        }
        continue;
      }
      // Removing a link removes the link; the content a tool logs for it was read through it (another file's text),
      // so it is no pre-image of the link's own blob.
      const own =
        edit.kind === "delete" && edit.pre_image !== null && links !== undefined && isLinkItself(path, links)
          ? { ...edit, pre_image: null }
          : edit;
      // A move from outside the repository brings no tracked lines: the edit applies to the new path's own state.
      // Renaming a link moves the link, not the file it names.
      const from = edit.moved_from ? toRepoPath(edit.moved_from, true, call.record) : null;
      // Every step has `from` (undefined when not a move): one object shape for V8.
      steps.push({ call, edit: own, path, from: from !== null && from !== path ? from : undefined });
    }
  }
  return { steps, outsideRepo: outside.size };
}

/**
 * The replay steps of given calls (successful file edits, in replay order) with their logged paths mapped
 * into the repository (root inferred from what `files.exists` knows); edits outside it are noted once.
 * Symbolic links are not followed here (a group's replay, metrics.md §1b).
 */
export function planSteps(
  session: Session,
  calls: readonly ToolCall[],
  files: Pick<UnitFiles, "exists" | "changed">,
  prefix: string,
  sink: DiagnosticSink,
): ReplayStep[] {
  const unitFiles: UnitFiles = { ...files, readBase: async () => null, readCommit: async () => null };
  return planReplay(
    session,
    0,
    unitFiles,
    new Set(files.changed.map((f) => f.path)),
    prefix,
    sink,
    undefined,
    undefined,
    calls,
  ).steps;
}

/** Every file whose base is needed: those the agent edited, then those the commit changes. */
function basePaths(steps: readonly ReplayStep[], changed: UnitFiles["changed"]): string[] {
  const seen = new Set<string>();
  for (const step of steps) {
    if (step.from !== undefined) seen.add(step.from);
    seen.add(step.path);
  }
  for (const file of changed) seen.add(file.path);
  return Array.from(seen);
}

function replayAndAttribute(
  plan: ReplayPlan,
  bases: Map<string, string | null>,
  commits: Map<string, string | null>,
  changed: UnitFiles["changed"],
  prefix: string,
  sink: DiagnosticSink,
  onLine?: (path: string, line: number, owner: LineOwner) => void,
): UnitAttribution {
  const replay = replayEdits(plan.steps, (path) => bases.get(path) ?? null);
  for (const issue of replay.issues) {
    if (issue.code === "edit-unreplayable") sink.warn(issue.code, prefix + issue.message, issue.record);
    else sink.info(issue.code, prefix + issue.message, issue.record);
  }
  const committed: CommittedFile[] = [];
  for (const file of changed) {
    if (file.binary) continue;
    committed.push({ path: file.path, base: bases.get(file.path) ?? null, commit: commits.get(file.path) ?? null });
  }
  const counts = attributeAtCommit(replay, committed, onLine);
  return {
    agent_lines_produced: counts.agent_lines_produced,
    agent_lines_final: counts.agent_lines_final,
    agent_lines_survived: counts.agent_lines_survived,
    human_lines: counts.human_lines,
    outside_lines: counts.outside_lines,
    total_committed_lines: counts.total_committed_lines,
    files: counts.files,
    unreplayable_calls: replay.unreplayable,
    outside_changes: replay.outsideChanges,
    files_outside_repo: plan.outsideRepo,
  };
}
