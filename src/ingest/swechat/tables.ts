/**
 * The small tables (sessions, session_logs, checkpoints, commits without
 * their patches, repositories), read once with projected columns and
 * checked row by row against their zod schemas. Together they are a few
 * tens of MB at the v2 scale; the patches and the conversations are never
 * held (see ./plan.ts and ./patches.ts).
 */
import { checkedCount, closedLabel, COUNT_MAX, type DiagnosticSink, successScore, USER_PERSONAS } from "../../model";
import { readRows } from "./parquet";
import type { SwechatFiles } from "./paths";
import {
  bool,
  CHECKPOINT_COLUMNS,
  type CheckpointRow,
  checkpointRowSchema,
  COMMIT_META_COLUMNS,
  type CommitMetaRow,
  commitMetaRowSchema,
  int,
  jsonList,
  num,
  REPOSITORY_COLUMNS,
  SESSION_COLUMNS,
  SESSION_LOG_COLUMNS,
  type SessionLogRow,
  sessionLogRowSchema,
  sessionRowSchema,
  str,
  type SwechatSessionRow,
  time,
} from "./schema";

export interface SwechatMeta {
  sessions: Map<string, SwechatSessionRow>;
  logs: Map<string, SessionLogRow>;
  checkpoints: Map<string, CheckpointRow>;
  /** Commit rows by their checkpoint, in table order. */
  commitsByCheckpoint: Map<string, CommitMetaRow[]>;
  commitCount: number;
  repositories: Set<string>;
}

/** Counts invalid rows per table and reports them once, with the first few reasons. */
class RowProblems {
  private counts = new Map<string, { n: number; first: string[] }>();
  add(table: string, message: string): void {
    let c = this.counts.get(table);
    if (!c) this.counts.set(table, (c = { n: 0, first: [] }));
    c.n++;
    if (c.first.length < 3) c.first.push(message);
  }
  report(sink: DiagnosticSink): void {
    for (const [table, c] of this.counts)
      sink.warn(
        "swechat-row-invalid",
        `${table}: ${c.n} row(s) do not match the schema and were skipped (${c.first.join("; ")})`,
      );
  }
}

export async function readSwechatMeta(files: SwechatFiles, sink: DiagnosticSink): Promise<SwechatMeta> {
  const problems = new RowProblems();
  const meta: SwechatMeta = {
    sessions: new Map(),
    logs: new Map(),
    checkpoints: new Map(),
    commitsByCheckpoint: new Map(),
    commitCount: 0,
    repositories: new Set(),
  };

  for await (const { row, position } of readRows(files.tables.sessions, SESSION_COLUMNS)) {
    // Entire's counts as the dataset recorded them, checked against their domain (a negative count is named and null).
    const count = (key: string, max = COUNT_MAX) =>
      checkedCount(num(row[key]), `sessions.${key}`, { record: position }, sink, max);
    const parsed = sessionRowSchema.safeParse({
      session_id: str(row.session_id),
      repo_id: str(row.repo_id),
      checkpoint_ids: jsonList(row.checkpoint_ids) ?? [],
      canonical_checkpoint_pk: str(row.canonical_checkpoint_pk),
      agent: str(row.agent),
      branch: str(row.branch),
      created_at: time(row.created_at),
      files_touched: jsonList(row.files_touched) ?? [],
      agent_lines: count("agent_lines"),
      human_added: count("human_added"),
      human_modified: count("human_modified"),
      human_removed: count("human_removed"),
      total_committed: count("total_committed"),
      agent_percentage: count("agent_percentage", 100),
      session_success: str(row.session_success),
      user_persona: str(row.user_persona),
    });
    if (!parsed.success)
      problems.add(
        "sessions",
        `row ${position}: ${parsed.error.issues[0]?.path.join(".")} ${parsed.error.issues[0]?.message}`,
      );
    else if (meta.sessions.has(parsed.data.session_id))
      problems.add("sessions", `row ${position}: session ${parsed.data.session_id} repeated (first row kept)`);
    else meta.sessions.set(parsed.data.session_id, parsed.data);
  }

  reportUnknownSessionLabels(meta.sessions, sink);

  for await (const { row, position } of readRows(files.tables.session_logs, SESSION_LOG_COLUMNS)) {
    const parsed = sessionLogRowSchema.safeParse({
      session_id: str(row.session_id),
      transcript_path: str(row.transcript_path) || null,
      transcript_start: transcriptStart(row.session_metadata_raw),
    });
    if (!parsed.success) problems.add("session_logs", `row ${position}: ${parsed.error.issues[0]?.message}`);
    else if (!meta.logs.has(parsed.data.session_id)) meta.logs.set(parsed.data.session_id, parsed.data);
  }

  for await (const { row, position } of readRows(files.tables.checkpoints, CHECKPOINT_COLUMNS)) {
    const parsed = checkpointRowSchema.safeParse({
      checkpoint_pk: str(row.checkpoint_pk),
      repo_id: str(row.repo_id),
      session_pks: jsonList(row.session_pks) ?? [],
      session_count: num(row.session_count),
      commit_shas: jsonList(row.commit_shas) ?? [],
      commit_count: num(row.commit_count),
      unique_author_count: num(row.unique_author_count),
    });
    if (!parsed.success) problems.add("checkpoints", `row ${position}: ${parsed.error.issues[0]?.message}`);
    else meta.checkpoints.set(parsed.data.checkpoint_pk, parsed.data);
  }

  for await (const { row, position } of readRows(files.tables.commits, COMMIT_META_COLUMNS)) {
    const parsed = commitMetaRowSchema.safeParse({
      commit_sha: str(row.commit_sha),
      checkpoint_pk: str(row.checkpoint_pk),
      repo_id: str(row.repo_id),
      commit_date: time(row.commit_date),
      total_additions: int(row.total_additions),
      is_agent_author: bool(row.is_agent_author),
      status: str(row.status),
      position,
    });
    if (!parsed.success) {
      problems.add("commits", `row ${position}: ${parsed.error.issues[0]?.message}`);
      continue;
    }
    meta.commitCount++;
    const key = parsed.data.checkpoint_pk ?? "";
    let list = meta.commitsByCheckpoint.get(key);
    if (!list) meta.commitsByCheckpoint.set(key, (list = []));
    list.push(parsed.data);
  }

  for await (const { row } of readRows(files.tables.repositories, REPOSITORY_COLUMNS)) {
    const id = str(row.repo_id);
    if (id) meta.repositories.add(id);
  }
  problems.report(sink);
  return meta;
}

/** `user_persona` outside its documented set and `session_success` that is not a score 0–100: read as no label, counted once for the table. */
function reportUnknownSessionLabels(sessions: Map<string, SwechatSessionRow>, sink: DiagnosticSink): void {
  const persona = new Map<string, number>();
  const success = new Map<string, number>();
  for (const s of sessions.values()) {
    if (closedLabel(USER_PERSONAS, s.user_persona ?? null).unknown)
      persona.set(s.user_persona!, (persona.get(s.user_persona!) ?? 0) + 1);
    if (successScore(s.session_success).unknown)
      success.set(s.session_success!, (success.get(s.session_success!) ?? 0) + 1);
  }
  for (const [column, values] of [
    ["user_persona", persona],
    ["session_success", success],
  ] as const) {
    if (values.size === 0) continue;
    const n = [...values.values()].reduce((a, b) => a + b, 0);
    const shown = [...values]
      .slice(0, 3)
      .map(([v, k]) => `"${v.slice(0, 40)}" ×${k}`)
      .join(", ");
    sink.warn(
      "swechat-label-unknown",
      `sessions: ${n} ${column} value(s) outside the documented set (${shown}): read as no label`,
    );
  }
}

/** Where the checkpoint's part of the raw transcript begins (Entire's session metadata), 0 when not recorded. */
function transcriptStart(raw: unknown): number {
  let value: unknown = raw;
  if (typeof raw === "string") {
    try {
      value = JSON.parse(raw);
    } catch {
      return 0;
    }
  }
  if (!value || typeof value !== "object") return 0;
  const r = value as Record<string, unknown>;
  const n = int(r.checkpoint_transcript_start ?? r.transcript_lines_at_start);
  return n !== null && n > 0 ? n : 0;
}
