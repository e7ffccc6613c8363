/**
 * Writes a synthetic SWE-chat dataset with the real schema (every column of
 * the six tables, src/ingest/swechat/real-schema.ts) at the September 2026
 * scale times `--scale`: 17,819 sessions with conversation rows, 707
 * repositories, about 2.03 M tool calls and 11.6 M conversation rows at
 * scale 1 (bench/swechat/README.md has the distributions).
 *
 *   tsx bench/swechat/generate.ts [--scale 1] [--seed 1] [--row-group 1048576] [--out DIR] [--force]
 *
 * Default folder `<os.tmpdir()>/swe-chat-eval-swechat/<scale>`; `manifest.json`
 * is written last, and a folder whose manifest matches is reused.
 * Like a pandas → pyarrow export: one file per table, row groups of 1 Mi rows,
 * snappy, no page index. Quirks of the release are planted: rows of 2 % of
 * the sessions out of turn order, duplicated turn_ids in 0.6 %, tool results
 * cut at 10 KB, 40 sessions without a sessions row, sessions without
 * conversation rows, the dayhaysoos/nimbus repository (3 % of sessions),
 * checkpoints shared by two sessions, copies of commits; raw Claude Code
 * transcripts (with pre-images) for 2 % of the sessions.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { fileWriter, ParquetWriter, schemaFromColumnData } from "hyparquet-writer";
import { REAL_SCHEMA, type SwechatTable, toColumnValue } from "../../src/ingest/swechat";
import { hex, lognormal, pick, type Rng, sfc32, uuid } from "./random";
import { CONV_ROW_KEYS, type ConvRow, type GenCheckpoint, generateSession, type TextSource } from "./session-gen";

export const GENERATOR_VERSION = 5;
export const V2 = {
  sessions: 17_819,
  repositories: 707,
  toolCalls: 2_028_951,
  rows: 11_607_572,
  prompts: 229_909,
  checkpoints: 54_918,
};

export interface DatasetManifest {
  generator: number;
  seed: number;
  scale: number;
  rowGroup: number;
  sessions: number;
  repositories: number;
  rows: number;
  toolCalls: number;
  prompts: number;
  checkpoints: number;
  commits: number;
  transcripts: number;
  bytes: Record<string, number>;
}

export const defaultDatasetDir = (scale: number): string => join(tmpdir(), "swe-chat-eval-swechat", String(scale));

type Row = Record<string, unknown>;

/** Streams rows of one table into a Parquet file, a batch (row group) at a time. */
class TableWriter {
  private writer: ParquetWriter | null = null;
  private batch: unknown[][] = [];
  constructor(
    private readonly file: string,
    private readonly table: SwechatTable,
    private readonly rowGroup: number,
  ) {}
  add(values: unknown[]): void {
    this.batch.push(values);
    if (this.batch.length >= this.rowGroup) this.flush();
  }
  addObject(row: Row): void {
    this.add(REAL_SCHEMA[this.table].map(([name]) => row[name] ?? null));
  }
  private flush(): void {
    if (this.batch.length === 0) return;
    const columnData = REAL_SCHEMA[this.table].map(([name, type], j) => ({
      name,
      type,
      offsetIndex: false,
      data: this.batch.map((r) => toColumnValue(type, r[j])) as never[],
    }));
    if (!this.writer)
      this.writer = new ParquetWriter({ writer: fileWriter(this.file), schema: schemaFromColumnData({ columnData }) });
    this.writer.write({ columnData, rowGroupSize: this.batch.length });
    this.batch = [];
  }
  finish(): void {
    this.flush();
    if (!this.writer) {
      // An empty table still needs its schema: one throwaway write is not possible, so write a single all-null row group of 0 rows.
      const columnData = REAL_SCHEMA[this.table].map(([name, type]) => ({ name, type, data: [] as never[] }));
      this.writer = new ParquetWriter({ writer: fileWriter(this.file), schema: schemaFromColumnData({ columnData }) });
    }
    this.writer.finish();
  }
}

function textSource(seed: number): TextSource {
  const rng = sfc32(seed ^ 0x5eed);
  const words: string[] = [];
  for (let i = 0; i < 4000; i++) {
    let w = "";
    const n = 2 + Math.floor(rng() * 9);
    for (let k = 0; k < n; k++) w += "etaoinshrdlucmfwypvbgkqjxz"[Math.floor(rng() ** 1.8 * 26)];
    words.push(w);
  }
  const parts: string[] = [];
  let size = 0;
  while (size < 8 * 1024 * 1024) {
    const w = pick(rng, words) + (rng() < 0.08 ? ".\n" : rng() < 0.1 ? ", " : " ");
    parts.push(w);
    size += w.length;
  }
  const corpus = parts.join("");
  const ids = words.slice(0, 600);
  return {
    prose(r: Rng, n: number) {
      const len = Math.max(1, Math.min(n, corpus.length - 1));
      const at = Math.floor(r() * (corpus.length - len));
      return corpus.slice(at, at + len);
    },
    codeLine(r: Rng) {
      const indent = "    ".repeat(Math.floor(r() * 3));
      switch (Math.floor(r() * 5)) {
        case 0:
          return `${indent}const ${pick(r, ids)}_${Math.floor(r() * 1000)} = ${pick(r, ids)}(${pick(r, ids)}, ${Math.floor(r() * 100)});`;
        case 1:
          return `${indent}if (${pick(r, ids)}.${pick(r, ids)} > ${Math.floor(r() * 1000)}) {`;
        case 2:
          return `${indent}return ${pick(r, ids)}.${pick(r, ids)}(${Math.floor(r() * 100)});`;
        case 3:
          return r() < 0.5 ? "" : `${indent}}`;
        default: {
          const at = Math.floor(r() * (corpus.length - 80));
          return `${indent}// ${corpus.slice(at, at + 20 + Math.floor(r() * 40)).replace(/\n/g, " ")}`;
        }
      }
    },
  };
}

export interface GenerateOptions {
  scale: number;
  seed?: number;
  rowGroup?: number;
  out?: string;
  force?: boolean;
  log?: (line: string) => void;
}

export function ensureDataset(options: GenerateOptions): { dir: string; manifest: DatasetManifest; reused: boolean } {
  const seed = options.seed ?? 1;
  const rowGroup = options.rowGroup ?? 1_048_576;
  const dir = resolve(options.out ?? defaultDatasetDir(options.scale));
  const log = options.log ?? (() => {});
  const manifestPath = join(dir, "manifest.json");
  if (!options.force && existsSync(manifestPath)) {
    try {
      const m = JSON.parse(readFileSync(manifestPath, "utf8")) as DatasetManifest;
      if (m.generator === GENERATOR_VERSION && m.seed === seed && m.scale === options.scale && m.rowGroup === rowGroup)
        return { dir, manifest: m, reused: true };
    } catch {
      // regenerate
    }
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, "transcripts"), { recursive: true });
  const rng = sfc32(seed);
  const text = textSource(seed);
  const nSessions = Math.max(20, Math.round(V2.sessions * options.scale));
  const nRepos = Math.max(3, Math.round(V2.repositories * options.scale));
  const repos = Array.from({ length: nRepos }, (_, i) =>
    i === 0
      ? "dayhaysoos/nimbus"
      : `${pick(rng, ["acme", "octo", "byte", "lumen", "kite"])}${i}/${pick(rng, ["app", "api", "cli", "web", "sdk"])}-${hex(rng, 4)}`,
  );
  const writers = Object.fromEntries(
    (Object.keys(REAL_SCHEMA) as SwechatTable[]).map((t) => [
      t,
      new TableWriter(join(dir, `${t}.parquet`), t, t === "conversations" ? rowGroup : t === "commits" ? 4096 : 65_536),
    ]),
  ) as Record<SwechatTable, TableWriter>;
  const m: DatasetManifest = {
    generator: GENERATOR_VERSION,
    seed,
    scale: options.scale,
    rowGroup,
    sessions: 0,
    repositories: nRepos,
    rows: 0,
    toolCalls: 0,
    prompts: 0,
    checkpoints: 0,
    commits: 0,
    transcripts: 0,
    bytes: {},
  };
  const checkpoints = new Map<string, GenCheckpoint & { repo: string }>();
  const noSessionRow = Math.max(1, Math.round(40 * options.scale));
  const start = Date.parse("2026-02-01T00:00:00Z");
  const span = Date.parse("2026-09-04T00:00:00Z") - start;
  let last: { repo: string; pk: string } | null = null;
  const started = Date.now();

  for (let i = 0; i < nSessions; i++) {
    // Repositories by a Zipf-like weight; the first (nimbus) gets 3 % of the sessions.
    const repo = rng() < 0.03 ? repos[0] : repos[1 + Math.min(nRepos - 2, Math.floor(rng() ** 2.2 * (nRepos - 1)))];
    const id = uuid(rng);
    const session = generateSession(rng, text, {
      index: i,
      id,
      repo,
      user: `dev${Math.floor(rng() * 900)}`,
      start: start + Math.floor((i / nSessions) * span) + Math.floor(rng() * 3_600_000),
      checkpointIds: () => hex(rng, 12),
      commitSha: () => hex(rng, 40),
      withTranscript: rng() < 0.02,
    });
    // 8 %: the session's canonical checkpoint is shared with the previous session of the repository.
    if (last && last.repo === repo && rng() < 0.08) {
      const shared = checkpoints.get(last.pk)!;
      shared.sessions.push(id);
      const own = session.checkpoints.pop()!;
      for (const r of session.rows) r[2] = last.pk;
      shared.commits.push(...own.commits.map((c) => ({ ...c, checkpoint_pk: last!.pk })));
    }
    for (const cp of session.checkpoints) {
      checkpoints.set(cp.pk, { ...cp, repo });
      // 4 %: a rebased copy of the checkpoint's first commit (same patch, later date).
      if (rng() < 0.04 && cp.commits[0])
        cp.commits.push({ ...cp.commits[0], sha: hex(rng, 40), date: cp.commits[0].date + 86_400_000 });
    }
    last = { repo, pk: session.rows[0][2] as string };

    // Row order: 2 % of sessions have rows out of turn order; 0.6 % repeat a few rows (same turn_id).
    const rows = session.rows;
    if (rng() < 0.02)
      for (let k = 0; k < Math.min(20, rows.length / 4); k++) {
        const a = Math.floor(rng() * rows.length);
        const b = Math.min(rows.length - 1, a + 1 + Math.floor(rng() * 5));
        [rows[a], rows[b]] = [rows[b], rows[a]];
      }
    if (rng() < 0.006)
      for (let k = 0; k < 1 + Math.floor(rng() * 10); k++)
        rows.splice(Math.floor(rng() * rows.length), 0, [...rows[Math.floor(rng() * rows.length)]]);
    for (const r of rows) writers.conversations.add(r);
    m.rows += rows.length;
    m.toolCalls += session.toolCalls;
    m.prompts += session.prompts;
    m.sessions++;
    if (session.transcript) {
      writeFileSync(join(dir, "transcripts", `${id}.jsonl`), session.transcript);
      m.transcripts++;
    }
    const canonical = rows[0][2] as string;
    const keptAgent = session.checkpoints.flatMap((c) => c.commits).reduce((n, c) => n + c.agentKept, 0);
    const committed = session.checkpoints.flatMap((c) => c.commits).reduce((n, c) => n + c.additions, 0);
    if (i >= noSessionRow) {
      writers.sessions.addObject({
        session_id: id,
        repo_id: repo,
        owner_id: repo.split("/")[0],
        user_id: rng() < 0.33 ? null : `u${Math.floor(rng() * 500)}`,
        checkpoint_ids: JSON.stringify([...new Set([...session.checkpoints.map((c) => c.pk), canonical])]),
        canonical_checkpoint_pk: canonical,
        agent: session.agent,
        strategy: "manual-commit",
        branch: pick(rng, ["main", "feature/x", "fix/bug"]),
        created_at: session.created,
        cli_version: "0.4.4",
        files_touched: "[]",
        files_touched_count: 0,
        checkpoints_count: session.checkpoints.length,
        input_tokens: session.tokens.input,
        output_tokens: session.tokens.output,
        cache_creation_tokens: session.tokens.cacheCreation,
        cache_read_tokens: session.tokens.cacheRead,
        api_call_count: session.tokens.calls,
        agent_lines: keptAgent,
        human_added: committed - keptAgent,
        human_modified: 0,
        human_removed: 0,
        total_committed: committed,
        agent_percentage: committed > 0 ? (100 * keptAgent) / committed : 0,
        tool_call_count: session.toolCalls,
        turn_count: session.prompts * 2,
        prompt_count: session.prompts,
        duration_seconds: (Number(rows[rows.length - 1][12]) - Number(rows[0][12])) / 1000,
        user_persona: pick(rng, ["Expert Nitpicker", "Vague Requester", "Mind Changer", "Other"]),
        session_success: String(Math.floor(lognormal(rng, 75, 0.3)) % 101),
      });
      writers.session_logs.addObject({
        session_id: id,
        transcript_path: session.transcript ? `${id}.jsonl` : "",
        context_md: text.prose(rng, Math.round(lognormal(rng, 1500, 0.8))),
        session_metadata_raw: JSON.stringify({ session_id: id, checkpoint_transcript_start: 0, agent: session.agent }),
      });
    }
    // Sessions without conversation rows (0.3 %): a sessions row only.
    if (rng() < 0.003)
      writers.sessions.addObject({
        session_id: uuid(rng),
        repo_id: repo,
        checkpoint_ids: "[]",
        canonical_checkpoint_pk: null,
        agent: "Claude Code",
        agent_percentage: 0,
        session_success: "50",
      });
    if (i % 1000 === 999)
      log(`  ${i + 1}/${nSessions} sessions, ${m.rows} rows, ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
  writers.conversations.finish();
  for (const cp of checkpoints.values()) {
    m.checkpoints++;
    const [repoId, cpId] = cp.pk.split("#");
    writers.checkpoints.addObject({
      checkpoint_pk: cp.pk,
      checkpoint_id: cpId,
      repo_id: repoId,
      session_pks: JSON.stringify(cp.sessions),
      session_count: cp.sessions.length,
      commit_shas: JSON.stringify(cp.commits.map((c) => c.sha)),
      commit_count: cp.commits.length,
      unique_author_count: 1,
      strategy: "manual-commit",
      total_additions: cp.commits.reduce((n, c) => n + c.additions, 0),
      total_deletions: cp.commits.reduce((n, c) => n + c.deletions, 0),
    });
    cp.commits.forEach((c, k) => {
      m.commits++;
      writers.commits.addObject({
        commit_sha: c.sha,
        checkpoint_pk: cp.pk,
        repo_id: repoId,
        commit_index: k,
        num_commits: cp.commits.length,
        author_name: "dev",
        author_email: "dev@example.com",
        author_date: c.date,
        commit_date: c.date,
        commit_message: "work in progress",
        branch: "main",
        is_agent_author: false,
        total_additions: c.additions,
        total_deletions: c.deletions,
        patch: c.patch,
        status: "ok",
      });
    });
  }
  for (const r of repos)
    writers.repositories.addObject({
      repo_id: r,
      owner_id: r.split("/")[0],
      name: r.split("/")[1],
      url: `https://github.com/${r}`,
      is_fork: false,
      num_checkpoints: 0,
    });
  for (const t of ["sessions", "session_logs", "checkpoints", "commits", "repositories"] as const) writers[t].finish();
  for (const t of Object.keys(REAL_SCHEMA)) m.bytes[t] = statSync(join(dir, `${t}.parquet`)).size;
  writeFileSync(manifestPath, JSON.stringify(m, null, 2));
  return { dir, manifest: m, reused: false };
}

/** Conversation row keys, re-exported for the bench's column checks. */
export { CONV_ROW_KEYS, type ConvRow };

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const arg = (name: string, fallback: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i >= 0 ? process.argv[i + 1] : fallback;
  };
  const result = ensureDataset({
    scale: Number(arg("scale", "1")),
    seed: Number(arg("seed", "1")),
    rowGroup: Number(arg("row-group", "1048576")),
    out: process.argv.includes("--out") ? arg("out", "") : undefined,
    force: process.argv.includes("--force"),
    log: (l) => process.stdout.write(l + "\n"),
  });
  process.stdout.write(`${result.reused ? "reused" : "wrote"} ${result.dir}: ${JSON.stringify(result.manifest)}\n`);
}
