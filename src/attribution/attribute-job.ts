/**
 * The one per-unit pipeline (architecture.md "One pipeline"): whatever the
 * input, a unit arrives as a {@link UnitJob} (the session and its slice, the
 * reasons its links already give, and either a repository with the commit or
 * the commit's patch) and leaves as a `units` row with its `unit_files` rows.
 * The method is chosen from what the job holds, never from the input kind:
 *
 * - a repository and a readable commit: `git-replay` (file states from git);
 * - a patch, and a raw log whose recorded pre-images the patch applies to:
 *   `pre-image-replay`;
 * - a patch otherwise: `patch-match` (tool inputs against the added lines).
 */
import type { GitRepository } from "../ingest/git/repo";
import {
  addAmbiguity,
  type Ambiguity,
  type AmbiguityReason,
  type CheckpointSession,
  type Commit,
  DiagnosticSink,
  explainExclusion,
  type LineRangeRow,
  type Session,
  type UnitFileRow,
  type UnitRow,
} from "../model";
import { LineRangeCollector, type LineOwnerLabel } from "./line-ranges";
import { patchMatch, type PatchMatchReplay } from "./patch-match";
import { attributeFromPreImages, type FilePatch } from "./pre-image-unit";
import { attributeUnit, type UnitAttribution } from "./replay-unit";
import { filesOfTree, NO_FILES, readBlob, type TreeFiles, unitLinks } from "./tree-files";
import { toUnitFileRows, toUnitRow } from "./unit-row";

/** Who the unit is: the columns of its row that do not come from the replay. */
export interface UnitSubject {
  session_id: string;
  commit_sha: string;
  checkpoint_id: string | null;
  repo: string;
  agent: string | null;
  model: string | null;
  /** Entire's own recorded numbers for the unit's session folder, when the data has them. */
  entire: CheckpointSession["initial_attribution"];
}

/** Where the commit's lines come from. */
export type UnitEvidence =
  | {
      kind: "git";
      repo: GitRepository;
      commit: Commit;
      /** Repo-relative paths the input says the session touched (Entire's `files_touched`): evidence for the root. */
      touched?: readonly string[];
    }
  | {
      kind: "patch";
      /** The commit as per-file unified diffs. */
      files: readonly FilePatch[];
      /** git's count of added lines, when the input records it. */
      numstat_additions: number | null;
      /** patch-match state shared by the units of one session (see patchMatch). */
      replays?: Map<string, PatchMatchReplay>;
      /**
       * Whether the session's pre-images are the tool's own record of the file (a raw agent log), so the file
       * states can be rebuilt from them; false where an adapter reconstructs them (SWE-agent's viewed windows).
       */
      recordedPreImages: boolean;
    };

export interface UnitJob {
  subject: UnitSubject;
  /** The session as read; null when its transcript is missing or unreadable (the reason is in `ambiguity`). */
  session: Session | null;
  /** The 0-based record where the unit's slice of the session begins. */
  sliceStart: number;
  /** The reasons the links already give (metrics.md §1); the job adds `commit-unreadable` when it applies. */
  ambiguity: Ambiguity;
  /** Specifics per reason for the `unit-excluded` row (e.g. which checkpoints). */
  details?: Partial<Record<AmbiguityReason, string>>;
  /** null: nothing of the commit can be read (no patch stored). */
  evidence: UnitEvidence | null;
  /** Write the `unit-excluded` row (default true); false when the caller learns more reasons later and explains then. */
  explain?: boolean;
  /** Gather every committed line's owner (`line_ranges`; git-replay units only): off by default, it costs memory. */
  lines?: boolean;
}

export interface UnitOutcome {
  unit: UnitRow;
  files: UnitFileRow[];
  /** The files the commit changes (first-parent diff), when they could be read. */
  changed: readonly string[];
  /** The committed lines' owners, when the job asked for them and the unit was replayed on git. */
  lines: LineRangeRow[];
}

// A BOM is part of the file's text (the agent's pre-images keep it), so it is not stripped.
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * Attributes one unit and writes its diagnostics (including the
 * `unit-excluded` row of an ambiguous unit) to `sink`. Never throws: an
 * internal error on input nobody foresaw becomes a `unit-failed` error and a
 * row without counts.
 */
export async function attributeUnitJob(job: UnitJob, sink: DiagnosticSink): Promise<UnitOutcome> {
  const label = `commit ${job.subject.commit_sha.slice(0, 10)}`;
  let read: ReadUnit;
  try {
    read = await readUnit(job, label, sink);
  } catch (e) {
    sink.error(
      "unit-failed",
      `${label}: internal error (${e instanceof Error ? e.message : String(e)}); the unit is kept without counts`,
    );
    read = { counts: null, method: null, numstat: null, changed: [] };
  }
  const lines = read.counts === null ? [] : (read.lines ?? []);
  const row = toUnitRow(
    { ...job.subject, method: read.method, ambiguity: job.ambiguity.ambiguity, numstat_additions: read.numstat },
    read.counts,
  );
  if (job.explain !== false) explainExclusion(job.subject, job.ambiguity, job.details ?? {}, sink);
  return { unit: row, files: toUnitFileRows(job.subject, read.counts), changed: read.changed, lines };
}

interface ReadUnit {
  counts: UnitAttribution | null;
  method: UnitRow["method"];
  numstat: number | null;
  changed: readonly string[];
  lines?: LineRangeRow[];
}

async function readUnit(job: UnitJob, label: string, sink: DiagnosticSink): Promise<ReadUnit> {
  const evidence = job.evidence;
  if (evidence === null) return { counts: null, method: null, numstat: null, changed: [] };
  if (evidence.kind === "git") return fromGit(job, evidence, label, sink);
  if (job.session === null)
    return {
      counts: null,
      method: null,
      numstat: evidence.numstat_additions,
      changed: evidence.files.map((f) => f.path),
    };
  const { counts, method } = await fromPatch(job.session, job.sliceStart, evidence, label, sink);
  return { counts, method, numstat: evidence.numstat_additions, changed: evidence.files.map((f) => f.path) };
}

/** `git-replay`: the session's slice replayed on the commit's first parent, attributed at the commit (metrics.md §3–4). */
async function fromGit(
  job: UnitJob,
  evidence: Extract<UnitEvidence, { kind: "git" }>,
  label: string,
  sink: DiagnosticSink,
): Promise<ReadUnit> {
  const { repo, commit } = evidence;
  const changed = await repo.changedFiles(commit.sha);
  if (changed === null) {
    addAmbiguity(job.ambiguity, "commit-unreadable");
    sink.warn("commit-unreadable", `${label}: the commit cannot be read (shallow or partial clone?)`);
    return { counts: null, method: null, numstat: null, changed: [] };
  }
  const numstat = changed.filter((f) => !f.binary).reduce((s, f) => s + (f.additions ?? 0), 0);
  const paths = changed.map((f) => f.path);
  if (job.session === null) return { counts: null, method: null, numstat, changed: paths };
  const parent = commit.parents[0] ?? null;
  const baseTree = parent ? await filesOfTree(repo, repo.gitDir, parent) : NO_FILES;
  const commitTree = await filesOfTree(repo, repo.gitDir, commit.sha);
  const links = await unitLinks(repo, baseTree, commitTree);
  // A blob this clone lacks (a partial clone), a file's or a symbolic link's: the unit cannot be read whole.
  const missing = new Set(links?.missing ?? []);
  const readText = async (tree: TreeFiles, p: string) => {
    const sha = tree.blob(p);
    if (sha === undefined) return null;
    const bytes = await readBlob(repo, sha);
    if (bytes === null) missing.add(p);
    return bytes === null ? null : decoder.decode(bytes);
  };
  const touched = new Set(evidence.touched ?? []);
  const collector = job.lines ? new LineRangeCollector(job.subject.session_id, null) : null;
  const onLine = collector
    ? (file: string, line: number, who: LineOwnerLabel) => collector.add(commit.sha, file, line, who)
    : undefined;
  const counts = await attributeUnit(
    job.session,
    job.sliceStart,
    {
      changed: changed.map((f) => ({ path: f.path, binary: f.binary })),
      readBase: (p) => readText(baseTree, p),
      readCommit: (p) => readText(commitTree, p),
      // Entire's files_touched are repo-relative: evidence for the root when a file is in neither tree (a new file
      // committed later, from a session started in a subfolder).
      exists: (p) => baseTree.has(p) || commitTree.has(p) || touched.has(p),
      ...(links ? { links: links.links } : {}),
      label,
    },
    sink,
    onLine,
    job.subject.model,
  );
  if (missing.size > 0) {
    addAmbiguity(job.ambiguity, "commit-unreadable");
    const list = [...missing];
    const linkNote =
      links !== null && links.missing.length > 0
        ? ` (symbolic links among them: where edits through them landed is unknown)`
        : "";
    sink.warn(
      "commit-unreadable",
      `${label}: ${list.slice(0, 3).join(", ")}${list.length > 3 ? ", …" : ""} at the commit or its parent ${list.length === 1 ? "is" : "are"} missing from this clone (partial clone?)${linkNote}; unit kept out of headline numbers`,
    );
  }
  return { counts, method: "git-replay", numstat, changed: paths, lines: collector?.rows ?? [] };
}

/** `pre-image-replay` when the log's pre-images take the commit's patch, else `patch-match`. */
async function fromPatch(
  session: Session,
  sliceStart: number,
  evidence: Extract<UnitEvidence, { kind: "patch" }>,
  label: string,
  sink: DiagnosticSink,
): Promise<{ counts: UnitAttribution; method: UnitRow["method"] }> {
  if (evidence.recordedPreImages && hasPreImages(session)) {
    const trial = new DiagnosticSink(sink.source, sink.file, sink.sessionId);
    const replayed = await attributeFromPreImages(session, sliceStart, evidence.files, trial);
    if (!trial.rows.some((d) => d.code === "commit-patch-unappliable")) {
      for (const d of trial.rows) sink.add(d.severity, d.code, `${label}: ${d.message}`, d.record);
      return { counts: replayed, method: "pre-image-replay" };
    }
    sink.info(
      "pre-image-fallback",
      `${label}: the commit's patch does not apply to the transcript's pre-images; method patch-match`,
    );
  }
  const counts = patchMatch(session, evidence.files, sink, {
    transcriptStart: sliceStart,
    label,
    replays: evidence.replays,
  });
  return { counts, method: "patch-match" };
}

/** Whether a successful edit of the session records the file before it: then its states can be rebuilt without git. */
function hasPreImages(session: Session): boolean {
  return session.tool_calls.some((c) => c.success === true && c.file_edits.some((e) => e.pre_image !== null));
}
