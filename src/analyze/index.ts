import { existsSync, realpathSync, statSync } from "node:fs";
import { DiagnosticSink, type RowSpool, spillRows } from "../model";
import { checkpointTrailersWithoutData } from "../ingest/entire";
import { openRepository } from "../ingest/git/repo";
import { FormatProbe } from "../ingest/probe-format";
import type { AnalysisRows } from "../model";
import { analyzeEntireRepository } from "./analyze-entire";
import { analyzeExportFile } from "./analyze-exports";
import { analyzeSwechatDataset } from "./analyze-swechat";
import { analyzeTranscripts, discardHistoryAhead, type HistoryAhead, readHistoryAhead } from "./analyze-transcripts";
import { keepSessions, type Shard, shardFilterOf } from "./shard";
import { specialFileKind, specialFileMessage } from "../ingest/read-regular";

export * from "./analyze-entire";
export * from "./analyze-exports";
export * from "./analyze-swechat";
export * from "../attribution/attribute-job";
export { analyzeSwechatSession } from "./swechat-job";
export * from "./entire-session-job";
export * from "./parallel";
export * from "./shard";
export * from "./analyze-transcripts";
export * from "../attribution/replay-unit";
export * from "../attribution/pre-image-unit";
export * from "../ingest/read-transcript";
export * from "./session-rows";
export * from "./tool-category";
export * from "../attribution/unit-row";

export interface AnalyzeRequest {
  inputs: string[];
  /** The repository transcripts edited, when it is not an input itself. */
  repo?: string;
  idleLimitS?: number;
  /** A commit as a unified diff, to attribute DataClaw and SpecStory sessions against (method patch-match). */
  commitPatch?: string;
  /** SWE-chat: a folder of clones as `<owner>/<name>`; the groups of those repositories are replayed on their file states (metrics.md §1b). */
  repos?: string;
  /** SWE-chat: keep the repositories excluded by default (dayhaysoos/nimbus, machine-generated prompts). */
  includeExcludedRepos?: boolean;
  /** Worker threads for per-session work (default: automatic; 1 runs inline). */
  threads?: number;
  /** Entire: transcript bytes of one session's parsed checkpoint copies kept for reuse (default 192 MiB); beyond it copies are parsed again when needed. */
  parsedCopiesBudgetBytes?: number;
  onProgress?: (done: number, total: number, label: string) => void;
  /** Only this share of the work (`--shard K/N`, ./shard.ts): Entire repositories and SWE-chat datasets skip the
   * other shards' sessions; transcripts and exports are read whole (a session's commits decide its group) and cut after. */
  shard?: Shard;
  /** Gather every committed line's owner (`line_ranges`, git-replay units and groups): off by default, it costs memory. */
  lines?: boolean;
  /**
   * Where the tables that grow with calls and lines go as the work delivers them (src/model/row-spool.ts), so
   * memory does not grow with them: those tables are then empty in the result's rows. Default: kept in memory.
   */
  spool?: RowSpool;
}

export interface AnalyzeResult {
  rows: AnalysisRows;
  inputs: { path: string; kind: string }[];
  /** False when no input could be read at all (exit code 1). */
  readAnything: boolean;
}

/** Runs the attribution job over every input; each input's kind is found from its content. */
export async function analyze(request: AnalyzeRequest): Promise<AnalyzeResult> {
  const rows: AnalysisRows = { units: [], sessions: [], tool_calls: [], diagnostics: [] };
  const options = {
    idleLimitS: request.idleLimitS ?? 300,
    threads: request.threads,
    parsedCopiesBudgetBytes: request.parsedCopiesBudgetBytes,
    onProgress: request.onProgress,
    shard: request.shard,
    shardGroups: new Map<string, string>(),
    lines: request.lines === true,
    probe: new FormatProbe(),
    historyAhead: undefined as HistoryAhead | undefined,
    spool: request.spool,
  };
  const inputs: { path: string; kind: string }[] = [];
  let readAnything = false;
  for (const path of request.inputs) {
    // The rows of the inputs before this one are in their final order.
    spillRows(rows, options.spool);
    if (!existsSync(path)) {
      const sink = new DiagnosticSink("input", path);
      sink.error("input-missing", `${path} does not exist`);
      rows.diagnostics.push(...sink.rows);
      inputs.push({ path, kind: "missing" });
      continue;
    }
    const special = specialFileKind(statSync(path));
    if (special !== null) {
      const sink = new DiagnosticSink("input", path);
      sink.error("input-special-file", `${path}: ${specialFileMessage(special)}`);
      rows.diagnostics.push(...sink.rows);
      inputs.push({ path, kind: "unrecognised" });
      continue;
    }
    if (await analyzeEntireRepository(path, options, rows)) {
      inputs.push({ path, kind: "entire-repository" });
      readAnything = true;
      continue;
    }
    // A SWE-chat dataset folder holds transcripts/*.jsonl too: check it before the transcript readers claim it.
    if (
      await analyzeSwechatDataset(
        path,
        { ...options, excludeRepos: request.includeExcludedRepos ? [] : undefined, clones: request.repos },
        rows,
      )
    ) {
      inputs.push({ path, kind: "swechat-dataset" });
      readAnything = true;
      continue;
    }
    // Exports (SWE-agent trajectories, DataClaw, SpecStory) and agent transcripts can share a folder: read both.
    // `--repo`'s history is read meanwhile, for the transcripts (closed here if they do not take it).
    options.historyAhead = request.repo ? readHistoryAhead(request.repo) : undefined;
    let exportsRead = false;
    let exportFile = false;
    let n = 0;
    try {
      exportsRead = await analyzeExportFile(path, { ...options, commitPatch: request.commitPatch ?? null }, rows);
      exportFile = exportsRead && statSync(path).isFile();
      if (!exportFile) n = await analyzeTranscripts(path, request.repo ?? null, options, rows);
    } finally {
      if (options.historyAhead) await discardHistoryAhead(options.historyAhead);
      options.historyAhead = undefined;
    }
    if (exportsRead) inputs.push({ path, kind: "exports" });
    if (exportFile) {
      readAnything = true;
      continue;
    }
    if (n > 0) inputs.push({ path, kind: "transcripts" });
    if (n > 0 || exportsRead) readAnything = true;
    else {
      inputs.push({ path, kind: "unrecognised" });
      const sink = new DiagnosticSink("input", path);
      const trailers = await checkpointTrailersWithoutData(path);
      if (trailers > 0) {
        sink.error(
          "entire-checkpoints-not-fetched",
          `${path}: ${trailers} commit(s) carry Entire-Checkpoint trailers, but the repository holds no checkpoint data (a plain clone does not fetch Entire's refs); fetch them with: git fetch origin '+refs/heads/entire/*:refs/heads/entire/*' '+refs/entire/*:refs/entire/*'`,
        );
      } else {
        const enclosing = await enclosingWorkTree(path);
        sink.error(
          "input-unrecognised",
          `${path} is not a git repository with Entire checkpoints, a folder or file of agent transcripts (Claude Code, Codex, Gemini CLI, OpenCode, Pi), nor an export (SWE-agent, DataClaw, SpecStory)` +
            (enclosing
              ? `; it is a folder inside the git repository ${enclosing}: analyze that path instead (or pass it as --repo with a folder of transcripts)`
              : ""),
        );
      }
      rows.diagnostics.push(...sink.rows);
    }
  }
  spillRows(rows, options.spool);
  if (request.shard === undefined) return { rows, inputs, readAnything };
  const keep = shardFilterOf(rows, request.shard, options.shardGroups);
  options.spool?.keepSessions(keep);
  return { rows: keepSessions(rows, keep), inputs, readAnything };
}

/** The top of the work tree that holds `path` when `path` is a folder below it (a common slip: analyzing `repo/src`). */
async function enclosingWorkTree(path: string): Promise<string | null> {
  const repo = await openRepository(path, { allowSubdirectory: true });
  if (repo === null) return null;
  await repo.close();
  const top = repo.workTree;
  return top !== null && realpathSync(path) !== top ? top : null;
}
