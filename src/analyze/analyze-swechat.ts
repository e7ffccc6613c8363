/**
 * The whole job on a SWE-chat dataset folder (its Parquet tables, plus
 * `transcripts/`), streaming the conversations table (src/ingest/swechat/
 * plan.ts and README.md): pass 1 indexes it, the commits' patches are
 * spooled to a temporary file, then each row group's ranges go to a worker
 * thread, which builds and analyses the sessions it holds whole; sessions
 * spread over several ranges are finished on this thread when their last
 * piece arrives, and the deferred ones (only in badly shuffled tables) are
 * gathered last.
 */
import { availableParallelism } from "node:os";
import { relative } from "node:path";
import {
  assemblePlan,
  checkpointIdOf,
  CONVERSATION_COLUMNS,
  type ConversationPlan,
  type ConversationRow,
  findSwechatFiles,
  isWhole,
  type LinkInput,
  linkCheckpoints,
  makeUnitLinker,
  PatchReader,
  type PatchSpool,
  readJobRows,
  readSwechatMeta,
  rowGroupReader,
  type RowGroupIndex,
  spoolPatches,
  type SwechatFiles,
  type SwechatMeta,
  transcriptIndex,
  type UnitLinker,
} from "../ingest/swechat";
import { type Diagnostic, DiagnosticSink, type GroupUnitRow, type Session, spillRows, type UnitRow } from "../model";
import type { AnalysisRows } from "../model";
import type { AnalyzeOptions } from "./analyze-entire";
import { jobModulePath, packageRoot } from "./package-root";
import { normalisedSessionId, sessionFilter } from "./shard";
import {
  findSwechatGroups,
  SwechatClones,
  type SwechatGroup,
  type ReplayedOnClone,
  swechatGroupFromClone,
  swechatGroupRows,
  workOutsideOnClone,
} from "./swechat-groups";
import { mapInWorkers } from "./parallel";
import {
  analyzeSwechatSession,
  runJob,
  type SwechatIndexJob,
  type SwechatIndexResult,
  type SwechatJob,
  type SwechatJobResult,
  type SwechatRange,
  type SwechatRows,
  type SwechatSessionContext,
} from "./swechat-job";

/** Machine-generated prompts (swechat.py `_EXCLUDED_REPOS`): left out unless asked for. */
export const SWECHAT_EXCLUDED_REPOS: readonly string[] = ["dayhaysoos/nimbus"];

export interface SwechatOptions extends AnalyzeOptions {
  /** Repositories left out (default SWECHAT_EXCLUDED_REPOS); `[]` keeps every repository. */
  excludeRepos?: readonly string[];
  /** A folder of clones as `<owner>/<name>`: the groups of those repositories are replayed on their file states. */
  clones?: string;
  /** Rows per conversations job (default 65,536). */
  jobRows?: number;
  /** Rows of sessions spread over several jobs held at once before they are deferred to a last pass (default 1,000,000). */
  maxBufferedRows?: number;
}

/**
 * Below this many conversation rows, starting workers costs more than it saves (each loads the bundle, about 0.3 s,
 * or compiles src/ through tsx, about 1.5 s, where there is no build).
 */
const MIN_ROWS_FOR_WORKERS = 50_000;
/**
 * Worker heaps: a larger young generation (the jobs allocate many
 * short-lived rows; GC was a fifth of the time with the default) and an
 * old-generation cap, so that two workers collect before the process
 * passes 3 GB (a job's live data is a few hundred MB).
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 96, maxOldGenerationSizeMb: 1536 };

/** Reads a SWE-chat dataset folder into the four tables; false when `path` holds no SWE-chat table. */
export async function analyzeSwechatDataset(
  path: string,
  options: SwechatOptions,
  out: AnalysisRows,
): Promise<boolean> {
  const sink = new DiagnosticSink("swechat", path);
  const files = await findSwechatFiles(path, sink);
  if (files === null) return false;
  try {
    await run(files, options, out, sink);
  } finally {
    for (const parts of Object.values(files.tables)) for (const p of parts) await p.close();
  }
  return true;
}

async function run(
  files: SwechatFiles,
  options: SwechatOptions,
  out: AnalysisRows,
  sink: DiagnosticSink,
): Promise<void> {
  const conv = files.tables.conversations;
  if (conv.length === 0) {
    sink.error("swechat-conversations-missing", "the dataset has no conversations table: no session can be read");
    out.diagnostics.push(...sink.rows);
    return;
  }
  for (const t of ["sessions", "checkpoints", "commits"] as const) {
    if (files.tables[t].length === 0)
      sink.warn(
        "swechat-table-missing",
        `no ${t} table: ${t === "sessions" ? "Entire's attribution and agent labels are" : "units are"} unavailable`,
      );
  }
  const meta = await readSwechatMeta(files, sink);
  // Every commit's patch is spooled (on this thread) while the workers run pass 1; fingerprints only where a checkpoint has several commits.
  const wanted = new Set<string>();
  const inMultiCommitCheckpoint = new Set<string>();
  for (const commits of meta.commitsByCheckpoint.values()) {
    for (const c of commits) {
      wanted.add(c.commit_sha);
      if (commits.length > 1) inMultiCommitCheckpoint.add(c.commit_sha);
    }
  }
  const spooling = spoolPatches(files, wanted, (sha) => inMultiCommitCheckpoint.has(sha));
  try {
    await streamSessions(files, meta, spooling, options, out, sink);
  } finally {
    await spooling.then(
      (s) => s.close(),
      () => undefined,
    );
  }
}

/** The sessions analysed: those with conversation rows, minus the excluded repositories; the rest counted in diagnostics. */
function selectSessions(
  meta: SwechatMeta,
  plan: ConversationPlan,
  excludeRepos: readonly string[],
  sink: DiagnosticSink,
): Map<string, LinkInput> {
  if (plan.rowsWithoutSession > 0)
    sink.warn(
      "swechat-row-without-session",
      `${plan.rowsWithoutSession} conversation row(s) have no session_id: skipped`,
    );
  const excluded = new Set(excludeRepos);
  const links = new Map<string, LinkInput>();
  let excludedSessions = 0;
  let excludedRows = 0;
  let withoutSessionRow = 0;
  for (const [id, span] of plan.spans) {
    const session = meta.sessions.get(id);
    const repo = session?.repo_id ?? span.repo;
    if (repo !== null && excluded.has(repo)) {
      excludedSessions++;
      excludedRows += span.rows;
      continue;
    }
    if (!session) withoutSessionRow++;
    links.set(id, { session, rowCheckpoint: span.checkpoint });
  }
  if (excludedSessions > 0)
    sink.info(
      "swechat-repo-excluded",
      `${excludedSessions} session(s) (${excludedRows} rows) of ${[...excluded].join(", ")} left out (machine-generated prompts); pass excludeRepos: [] to keep them`,
    );
  const withoutRows = [...meta.sessions.keys()].filter((id) => !plan.spans.has(id)).length;
  if (withoutRows > 0)
    sink.info(
      "swechat-session-without-rows",
      `${withoutRows} session(s) of the sessions table have no conversation rows: dropped`,
    );
  if (withoutSessionRow > 0)
    sink.info(
      "swechat-session-row-missing",
      `${withoutSessionRow} session(s) have conversation rows but no sessions row: kept, without Entire's attribution`,
    );
  if (plan.deferred.size > 0)
    sink.info(
      "swechat-sessions-deferred",
      `${plan.deferred.size} session(s) are spread too widely over the conversations table: gathered in ${plan.deferredBatches.length} extra pass(es)`,
    );
  return links;
}

/** A session's shard: by its group's id (every SWE-chat session with a commit is in a group), else by its own id. */
function shardFilter(groups: readonly SwechatGroup[], options: SwechatOptions): (id: string) => boolean {
  if (!options.shard) return () => true;
  const groupOf = options.shardGroups ?? new Map<string, string>();
  for (const g of groups) for (const s of g.sessions) groupOf.set(normalisedSessionId(s), g.group_id);
  return sessionFilter(options.shard, groupOf);
}

/**
 * The `group_units` rows of metrics.md §1b, after the sessions (their rows give each member's agent and model):
 * replayed where a clone holds the group's repository, else null counts and their reason.
 */
async function emitGroups(
  groups: readonly SwechatGroup[],
  with_: {
    meta: SwechatMeta;
    patches: PatchSpool["patches"];
    clones: SwechatClones | null;
    kept: ReadonlyMap<string, Session>;
    lines: boolean;
  },
  out: AnalysisRows,
): Promise<void> {
  const { meta, patches, clones, kept } = with_;
  const sessionRows = new Map(out.sessions.map((s) => [s.session_id, s]));
  const rows = (out.group_units ??= []);
  const replayed = new Map<string, ReplayedOnClone[]>();
  const strict = strictUnitsByKey(out.units);
  for (const g of groups) {
    // metrics.md §1b: a group of one session and one commit gives exactly its strict unit's numbers (patch-match
    // or pre-image replay here), with or without a clone: the strict view is never wider than the group view.
    const unit =
      g.sessions.length === 1 && g.commits.length === 1
        ? strict.get(unitKey(g.sessions[0], g.commits[0].commit_sha))
        : undefined;
    if (unit) {
      rows.push(groupRowOfStrictUnit(unit, swechatGroupRows(g, meta, patches, sessionRows).rows[0]));
      continue;
    }
    const lines = with_.lines ? [] : undefined;
    const made: { rows: GroupUnitRow[]; diagnostics: Diagnostic[]; replayed?: ReplayedOnClone } =
      clones?.pathOf(g.repo) != null
        ? await swechatGroupFromClone(g, clones, kept, meta, patches, sessionRows, lines)
        : swechatGroupRows(g, meta, patches, sessionRows);
    for (const r of made.rows) rows.push(r);
    for (const d of made.diagnostics) out.diagnostics.push(d);
    if (lines && lines.length > 0) (out.line_ranges ??= []).push(...lines);
    if (made.replayed) {
      const list = replayed.get(g.repo) ?? [];
      list.push(made.replayed);
      replayed.set(g.repo, list);
    }
  }
  // Once per clone: its history is read once for all its groups.
  for (const [repo, list] of replayed) out.diagnostics.push(...(await workOutsideOnClone(repo, list, clones!, meta)));
}

const unitKey = (session: string, commit: string) => `${normalisedSessionId(session)}\u0000${commit}`;

/** The strict units with counts (unambiguous), by session and commit. */
function strictUnitsByKey(units: readonly UnitRow[]): Map<string, UnitRow> {
  const out = new Map<string, UnitRow>();
  for (const u of units)
    if (u.ambiguity === null && u.total_committed_lines !== null) out.set(unitKey(u.session_id, u.commit_sha), u);
  return out;
}

/** A one-session one-commit group's row: its strict unit's method and counts, the group's own columns around them. */
function groupRowOfStrictUnit(unit: UnitRow, row: GroupUnitRow): GroupUnitRow {
  return {
    ...row,
    method: unit.method,
    ambiguity: null,
    agent_lines_produced: unit.agent_lines_produced,
    agent_lines_final: unit.agent_lines_final,
    agent_lines_survived: unit.agent_lines_survived,
    human_lines: unit.human_lines,
    outside_lines: unit.outside_lines,
    total_committed_lines: unit.total_committed_lines,
    numstat_additions: unit.numstat_additions,
    code_survival_rate: unit.code_survival_rate,
    coding_efficiency: unit.coding_efficiency,
    agent_authored_pct: unit.agent_authored_pct,
    coding_mode: unit.coding_mode,
    unreplayable_calls: unit.unreplayable_calls,
    outside_changes: unit.outside_changes,
    other_session_lines: 0,
    concurrent_calls: 0,
    branch_switches: 0,
  };
}

/** Sessions whose checkpoints are on no commit form no unit, and commits a checkpoint names may be missing from the commits table: both counted (metrics.md §1). */
function countUnlinked(meta: SwechatMeta, sessionCheckpoints: Map<string, string[]>, sink: DiagnosticSink): void {
  let withoutCommit = 0;
  const missing = new Set<string>();
  for (const cps of sessionCheckpoints.values()) {
    if (!cps.some((cp) => (meta.commitsByCheckpoint.get(cp)?.length ?? 0) > 0)) withoutCommit++;
    for (const cp of cps) {
      const present = new Set((meta.commitsByCheckpoint.get(cp) ?? []).map((c) => c.commit_sha));
      for (const sha of meta.checkpoints.get(cp)?.commit_shas ?? []) if (!present.has(sha)) missing.add(`${cp} ${sha}`);
    }
  }
  if (withoutCommit > 0)
    sink.info(
      "swechat-session-without-commit",
      `${withoutCommit} session(s) are in no checkpoint with a commit: no unit`,
    );
  if (missing.size > 0)
    sink.warn(
      "swechat-commit-missing",
      `${missing.size} commit(s) named by the checkpoints of analysed sessions are not in the commits table: no unit`,
    );
}

function sessionContext(
  id: string,
  link: LinkInput,
  plan: ConversationPlan,
  meta: SwechatMeta,
  linker: UnitLinker,
  spool: PatchSpool,
  transcripts: Map<string, string>,
): SwechatSessionContext {
  const s = link.session;
  const span = plan.spans.get(id)!;
  return {
    session_id: id,
    repo: s?.repo_id ?? span.repo ?? "",
    agent: s?.agent ?? span.agent,
    branch: s?.branch ?? null,
    transcript: transcripts.get(id) ?? null,
    transcript_start: meta.logs.get(id)?.transcript_start ?? 0,
    canonical_checkpoint: s?.canonical_checkpoint_pk ?? span.checkpoint,
    entire:
      s && s.agent_lines !== null && s.total_committed !== null
        ? {
            agent_lines: s.agent_lines,
            human_added: s.human_added,
            human_modified: s.human_modified,
            human_removed: s.human_removed,
            total_committed: s.total_committed,
            agent_percentage: s.agent_percentage,
          }
        : null,
    files_touched: s?.files_touched ?? [],
    labels: s
      ? {
          user_persona: s.user_persona ?? null,
          session_success: s.session_success,
          agent_percentage: s.agent_percentage,
        }
      : null,
    units: linker.unitsOf(id, spool.patches).map((u) => ({
      commit_sha: u.commit.commit_sha,
      checkpoint_pk: u.checkpoint_pk,
      checkpoint_id: checkpointIdOf(u.checkpoint_pk),
      ambiguity: u.ambiguity,
      numstat_additions: u.commit.total_additions,
      patch: spool.patches.get(u.commit.commit_sha)?.ref ?? null,
      copies: u.copies,
    })),
  };
}

async function streamSessions(
  files: SwechatFiles,
  meta: SwechatMeta,
  spooling: Promise<PatchSpool>,
  options: SwechatOptions,
  out: AnalysisRows,
  sink: DiagnosticSink,
): Promise<void> {
  const conv = files.tables.conversations;
  const offsets = conv.map((_, i) => conv.slice(0, i).reduce((n, p) => n + p.rows, 0));
  const indexJobs: SwechatIndexJob[] = conv.flatMap((p, part) =>
    p.rowGroups.map((_, rowGroup) => ({
      kind: "index" as const,
      file: p.file,
      part,
      rowGroup,
      targetRows: options.jobRows,
    })),
  );
  const indexes: RowGroupIndex[] = [];
  let indexed = () => {};
  const allIndexed = new Promise<void>((resolve) => (indexed = resolve));
  if (indexJobs.length === 0) indexed();

  // Set once pass 1 and the spool are done, before the first row-group job.
  let plan!: ConversationPlan;
  let links!: Map<string, LinkInput>;
  let reader!: PatchReader;
  let contextOf!: (id: string) => SwechatSessionContext;
  let relevant!: (id: string) => boolean;
  let groups: SwechatGroup[] = [];
  let patches!: PatchSpool["patches"];
  // Set with the groups: a group's sessions share its shard (./shard.ts).
  let inShard: (id: string) => boolean = () => true;
  const excludedRepos = options.excludeRepos ?? SWECHAT_EXCLUDED_REPOS;
  const clones = options.clones ? new SwechatClones(options.clones) : null;
  const keepSessions = new Set<string>();
  const kept = new Map<string, Session>();

  async function* work(): AsyncGenerator<SwechatIndexJob | SwechatJob> {
    for (const job of indexJobs) yield job; // not yield*: TypeScript 5.0 (notebooks) rejects it here
    await allIndexed;
    plan = assemblePlan(indexes, { maxBufferedRows: options.maxBufferedRows });
    links = selectSessions(meta, plan, excludedRepos, sink);
    const spool = await spooling;
    reader = new PatchReader(spool.file);
    const sessionCheckpoints = linkCheckpoints(meta.checkpoints, links);
    const linker = makeUnitLinker(meta.checkpoints, meta.commitsByCheckpoint, sessionCheckpoints);
    countUnlinked(meta, sessionCheckpoints, sink);
    groups = findSwechatGroups(meta, links, new Set(excludedRepos), spool.patches);
    patches = spool.patches;
    inShard = shardFilter(groups, options);
    // Sessions of the groups a clone can replay come back from the workers whole.
    for (const g of groups) if (clones?.pathOf(g.repo) != null) for (const id of g.sessions) keepSessions.add(id);
    const transcripts = transcriptIndex(files, new Map([...meta.logs].map(([id, l]) => [id, l.transcript_path])), sink);
    for (const d of sink.rows) out.diagnostics.push(d);
    contextOf = (id: string) => ({
      ...sessionContext(id, links.get(id)!, plan, meta, linker, spool, transcripts),
      keep_session: keepSessions.has(id),
    });
    relevant = (id: string) => links.has(id) && !plan.deferred.has(id) && inShard(id);
    yield* jobs(spool);
  }

  function* jobs(spool: PatchSpool): Generator<SwechatJob> {
    let ranges: SwechatRange[] = [];
    for (const [i, job] of plan.jobs.entries()) {
      const whole: SwechatSessionContext[] = [];
      const pieces: string[] = [];
      for (const id of job.sessions.keys()) {
        if (!relevant(id)) continue;
        if (isWhole(plan.spans.get(id)!)) whole.push(contextOf(id));
        else pieces.push(id);
      }
      whole.sort((a, b) => (a.session_id < b.session_id ? -1 : a.session_id > b.session_id ? 1 : 0));
      pieces.sort();
      if (whole.length + pieces.length > 0)
        ranges.push({ index: job.index, rowStart: job.rowStart, rowEnd: job.rowEnd, whole, pieces });
      const next = plan.jobs[i + 1];
      if ((!next || next.group !== job.group) && ranges.length > 0) {
        yield {
          file: conv[job.part].file,
          rowGroup: job.rowGroup,
          offset: offsets[job.part],
          ranges,
          spool: spool.file,
          idleLimitS: options.idleLimitS,
        };
        ranges = [];
      }
    }
  }

  // Rows come back from workers as fresh copies: one string per repeated value (session id, tool name, category,
  // file) is kept, unless the rows leave memory at once (a spool).
  const strings = new Map<string, string>();
  const intern = (v: string | null): string | null => {
    if (v === null || options.spool) return v;
    const known = strings.get(v);
    if (known !== undefined) return known;
    strings.set(v, v);
    return v;
  };
  // One push per row: a job's tool calls can number hundreds of thousands, too many for `push(...rows)`.
  const emit = (rows: SwechatRows) => {
    for (const r of rows.units) out.units.push(r);
    for (const r of rows.sessions) out.sessions.push(r);
    for (const r of rows.tool_calls) {
      r.session_id = intern(r.session_id)!;
      r.tool = intern(r.tool)!;
      r.category = intern(r.category)!;
      r.file = intern(r.file);
      out.tool_calls.push(r);
    }
    for (const r of rows.diagnostics) out.diagnostics.push(r);
    const prompts = (out.prompts ??= []);
    for (const r of rows.prompts ?? []) prompts.push(r);
    for (const k of rows.kept ?? []) kept.set(k.session_id, k.session);
    // Rows arrive in their final order: the calls and prompts leave memory here when there is a spool.
    spillRows(out, options.spool);
  };
  // Sessions finished on this thread: their rows go through `emit` too.
  const analyzeHere = async (id: string, rows: readonly ConversationRow[]) => {
    const side: SwechatRows = { units: [], sessions: [], tool_calls: [], diagnostics: [], prompts: [] };
    await analyzeSwechatSession(contextOf(id), rows, reader, options.idleLimitS, side);
    emit(side);
  };

  const buffered = new Map<string, ConversationRow[]>();
  let invalidRows = 0;
  let done = 0;
  const totalRows = conv.reduce((n, p) => n + p.rows, 0);
  const root = packageRoot();
  const threads =
    options.threads ?? (totalRows >= MIN_ROWS_FOR_WORKERS && root ? Math.min(availableParallelism(), 8) : 1);
  options.onProgress?.(0, totalRows, "conversation rows");
  try {
    await mapInWorkers<SwechatIndexJob | SwechatJob, SwechatIndexResult | SwechatJobResult>(
      work(),
      root ? jobModulePath(root, "swechat-job") : "swechat-job",
      {
        threads: root ? threads : 1,
        run: runJob,
        resourceLimits: WORKER_LIMITS,
        // One row group per worker at a time: memory is a row group's small columns plus one range per worker.
        maxInFlight: threads,
        onResult: async (result, index) => {
          if (result.kind === "index") {
            indexes[index] = result.index;
            if (index === indexJobs.length - 1) indexed();
            return;
          }
          emit(result);
          invalidRows += result.invalidRows;
          for (const piece of result.pieces) {
            const list = buffered.get(piece.session_id) ?? [];
            for (const r of piece.rows) list.push(r);
            if (plan.spans.get(piece.session_id)!.lastJob === piece.job) {
              buffered.delete(piece.session_id);
              await analyzeHere(piece.session_id, list);
            } else buffered.set(piece.session_id, list);
          }
          done += result.rows;
          options.onProgress?.(done, totalRows, relative(files.root, conv[0].file));
        },
      },
    );
    await deferredPass();
    await emitGroups(
      groups.filter((g) => inShard(g.sessions[0])),
      { meta, patches, clones, kept, lines: options.lines === true },
      out,
    );
  } finally {
    reader?.close();
    await clones?.close();
  }
  if (invalidRows > 0) {
    const s = new DiagnosticSink("swechat", files.root);
    s.warn("swechat-row-invalid", `${invalidRows} conversation row(s) without a usable turn_number: skipped`);
    out.diagnostics.push(...s.rows);
  }

  /** Pass 3: sessions spread too widely to buffer, a bounded batch at a time, re-reading only the jobs that hold them. */
  async function deferredPass(): Promise<void> {
    for (const batch of plan.deferredBatches) {
      const ids = new Set(batch.filter(inShard));
      const rows = new Map<string, ConversationRow[]>();
      let readGroup = -1;
      let readRange: ReturnType<typeof rowGroupReader> | null = null;
      for (const job of plan.jobs) {
        if (![...job.sessions.keys()].some((id) => ids.has(id))) continue;
        if (readRange === null || readGroup !== job.group) {
          readGroup = job.group;
          readRange = rowGroupReader(conv[job.part], job.rowGroup, CONVERSATION_COLUMNS);
        }
        const got = await readJobRows(
          conv[job.part],
          job.rowStart,
          job.rowEnd,
          offsets[job.part],
          (id) => ids.has(id),
          readRange,
        );
        invalidRows += got.invalid;
        for (const [id, list] of got.bySession) {
          const acc = rows.get(id) ?? [];
          for (const r of list) acc.push(r);
          rows.set(id, acc);
        }
      }
      for (const id of batch) if (links.has(id)) await analyzeHere(id, rows.get(id) ?? []);
    }
  }
}
