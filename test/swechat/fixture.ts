/**
 * A small SWE-chat dataset with the real schema (every column of the six
 * tables, src/ingest/swechat/real-schema.ts), written with hyparquet-writer
 * into a temporary folder. The sessions and their expected numbers are
 * worked out in dataset.test.ts.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parquetWriteFile } from "hyparquet-writer";
import { REAL_SCHEMA, type SwechatTable, toColumnValue } from "../../src/ingest/swechat";
import { ClaudeLog, editResult, writeResult } from "../helpers/claude-log";

type Row = Record<string, unknown>;

export function writeTable(file: string, table: SwechatTable, rows: readonly Row[], rowGroupSize = 4): void {
  parquetWriteFile({
    filename: file,
    rowGroupSize,
    columnData: REAL_SCHEMA[table].map(([name, type]) => ({
      name,
      type,
      data: rows.map((r) => toColumnValue(type, r[name])) as never[],
    })),
  });
}

/** A `checkpoints` row (the real schema): checkpoint `pk` of `repo`, its 12-hex id, its sessions and commits. */
export const checkpointRow = (repo: string, pk: string, id: string, sessions: string[], commits: string[]): Row => ({
  checkpoint_pk: pk,
  checkpoint_id: id,
  repo_id: repo,
  session_pks: JSON.stringify(sessions),
  session_count: sessions.length,
  commit_shas: JSON.stringify(commits),
  commit_count: commits.length,
  unique_author_count: 1,
});

/** A `commits` row (the real schema): a person's commit on checkpoint `pk` at `date`, with its patch and additions. */
export const commitRow = (
  c: { sha: string; pk: string; repo: string; date: Date; patch: string; additions: number },
  message = "work",
): Row => ({
  commit_sha: c.sha,
  checkpoint_pk: c.pk,
  repo_id: c.repo,
  commit_date: c.date,
  author_date: c.date,
  commit_message: message,
  is_agent_author: false,
  total_additions: c.additions,
  total_deletions: 0,
  patch: c.patch,
  status: "ok",
});

export const REPO = "acme/app";
export const NIMBUS = "dayhaysoos/nimbus";
export const S1 = "11111111-1111-4111-8111-111111111111";
export const S2 = "22222222-2222-4222-8222-222222222222";
export const S3 = "33333333-3333-4333-8333-333333333333";
export const S4 = "44444444-4444-4444-8444-444444444444";
export const S5 = "55555555-5555-4555-8555-555555555555";
export const S6 = "66666666-6666-4666-8666-666666666666";
export const cp = (s: string) => `${s === S5 ? NIMBUS : REPO}#${s.slice(0, 2).repeat(6)}`;
export const C1 = "c1".repeat(20);
export const C2 = "c2".repeat(20);
export const C3A = "3a".repeat(20);
export const C3B = "3b".repeat(20);
export const C3C = "3c".repeat(20);
export const C4 = "c4".repeat(20);
export const C5 = "c5".repeat(20);

export const T0 = Date.parse("2026-04-01T10:00:00.000Z");
const OPUS = "claude-opus-4-6";
export const TRUNCATED = "x".repeat(10 * 1024);

const conv = (session: string, turn: number, fields: Row): Row => ({
  turn_id: `${session}#${turn}`,
  session_id: session,
  checkpoint_pk: cp(session),
  repo_id: session === S5 ? NIMBUS : REPO,
  turn_number: turn,
  role:
    fields.turn_type === "user_prompt"
      ? "user"
      : fields.turn_type === "tool_result"
        ? "tool_result"
        : fields.turn_type === "tool_use"
          ? "tool_use"
          : "assistant",
  is_conversational: fields.turn_type === "user_prompt" || fields.turn_type === "assistant_response",
  agent: "Claude Code",
  strategy: "manual-commit",
  ...fields,
});
const tokens = (i: number, o: number, cc: number, cr: number) => ({
  model: OPUS,
  input_tokens: i,
  output_tokens: o,
  cache_creation_input_tokens: cc,
  cache_read_input_tokens: cr,
});
const at = (s: number) => new Date(T0 + s * 1000);
const tool = (name: string, id: string, input: Row, extra: Row = {}) => ({
  turn_type: "tool_use",
  tool_name: name,
  tool_call_id: id,
  tool_input_json: JSON.stringify(input),
  content: JSON.stringify(input),
  file_path: (input.file_path as string | undefined) ?? null,
  command: (input.command as string | undefined) ?? null,
  ...extra,
});
const result = (id: string, content: string) => ({ turn_type: "tool_result", tool_call_id: id, content });

const GREET = "/home/u/app/greet.py";
const s1 = [
  conv(S1, 0, { turn_type: "user_prompt", content: "add a greeting module", timestamp: at(0), is_first_turn: true }),
  conv(S1, 1, { turn_type: "assistant_response", content: "On it.", timestamp: at(10), ...tokens(10, 20, 100, 0) }),
  conv(S1, 2, {
    ...tool("Write", "toolu_s1_1", { file_path: GREET, content: "def hi():\n    return 'hi'\n" }),
    timestamp: at(20),
    ...tokens(10, 25, 100, 0),
  }),
  conv(S1, 3, { ...result("toolu_s1_1", `File created successfully at: ${GREET}`), timestamp: at(30) }),
  conv(S1, 4, {
    ...tool("Edit", "toolu_s1_2", {
      file_path: GREET,
      old_string: "    return 'hi'\n",
      new_string: "    return 'hello'\n",
      replace_all: false,
    }),
    timestamp: at(40),
    ...tokens(12, 30, 0, 120),
  }),
  conv(S1, 5, { ...result("toolu_s1_2", `The file ${GREET} has been updated.`), timestamp: at(50) }),
  conv(S1, 6, {
    ...tool("Bash", "toolu_s1_3", { command: "pytest -q" }),
    bash_category: "test-build",
    timestamp: at(60),
    ...tokens(5, 7, 0, 130),
  }),
  conv(S1, 7, { ...result("toolu_s1_3", TRUNCATED), timestamp: at(70) }),
  conv(S1, 8, {
    ...tool("Edit", "toolu_s1_4", { file_path: GREET, old_string: "nothing", new_string: "x" }),
    timestamp: at(80),
    ...tokens(6, 8, 0, 140),
  }),
  conv(S1, 9, {
    ...result("toolu_s1_4", "<tool_use_error>String to replace not found in file.\nString: nothing</tool_use_error>"),
    timestamp: at(90),
  }),
  conv(S1, 10, { turn_type: "user_prompt", content: "thanks", timestamp: at(100) }),
  conv(S1, 11, { ...tool("Bash", "toolu_s1_5", {}), bash_category: "git", timestamp: at(110) }),
  conv(S1, 12, { ...result("toolu_s1_5", "ok"), timestamp: at(120) }),
];
const s2 = [
  conv(S2, 0, { turn_type: "user_prompt", content: "bump y", timestamp: at(1000) }),
  conv(S2, 1, {
    ...tool("Edit", "toolu_s2", { file_path: "/w/app/lib.py", old_string: "y = 2\n", new_string: "y = 3\nz = 4\n" }),
    timestamp: at(1010),
    ...tokens(1, 1, 1, 1),
  }),
  conv(S2, 2, { ...result("toolu_s2", "ok"), timestamp: at(1020) }),
];
const s3 = [0, 1, 2].map((n) =>
  conv(S3, n, {
    turn_type: n === 0 ? "user_prompt" : "assistant_response",
    content: "rows of S3",
    timestamp: at(2000 + n),
  }),
);
const s4 = [
  conv(S4, 0, { turn_type: "user_prompt", content: "add util", timestamp: at(3000) }),
  conv(S4, 1, {
    ...tool("Write", "toolu_s4", { file_path: "/home/u/app/util.py", content: "u = 1\n" }),
    timestamp: at(3010),
    ...tokens(1, 2, 0, 0),
  }),
];
const s5 = [0, 1].map((n) => conv(S5, n, { turn_type: "user_prompt", content: "generated", timestamp: at(4000 + n) }));

export const C1_PATCH = [
  "diff --git a/greet.py b/greet.py",
  "new file mode 100644",
  "index 0000000..1111111",
  "--- /dev/null",
  "+++ b/greet.py",
  "@@ -0,0 +1,4 @@",
  "+def hi():",
  "+    return 'hello'",
  "+",
  "+print(hi())",
  "diff --git a/README.md b/README.md",
  "index 2222222..3333333 100644",
  "--- a/README.md",
  "+++ b/README.md",
  "@@ -1 +1,2 @@",
  " app",
  "+# App",
  "",
].join("\n");
const C2_PATCH =
  "diff --git a/lib.py b/lib.py\nindex 1111111..2222222 100644\n--- a/lib.py\n+++ b/lib.py\n@@ -1,2 +1,3 @@\n x = 1\n-y = 2\n+y = 3\n+z = 5\n";
const NEW_PY =
  "diff --git a/new.py b/new.py\nnew file mode 100644\nindex 0000000..4444444\n--- /dev/null\n+++ b/new.py\n@@ -0,0 +1,2 @@\n+a\n+b\n";
const DOCS =
  "diff --git a/docs.md b/docs.md\nnew file mode 100644\nindex 0000000..5555555\n--- /dev/null\n+++ b/docs.md\n@@ -0,0 +1 @@\n+doc\n";
const UTIL =
  "diff --git a/util.py b/util.py\nnew file mode 100644\nindex 0000000..6666666\n--- /dev/null\n+++ b/util.py\n@@ -0,0 +1 @@\n+u = 1\n";

/** The raw transcripts: S2 with NUL padding on its first line, S3 with two records on one line. */
function transcripts(): { s2: string; s3: string } {
  const a = new ClaudeLog({ sessionId: S2, cwd: "/w/app" })
    .prompt("bump y")
    .call("toolu_s2", "Edit", { file_path: "/w/app/lib.py", old_string: "y = 2\n", new_string: "y = 3\nz = 4\n" })
    .result("toolu_s2", editResult("/w/app/lib.py", "x = 1\ny = 2\n", "y = 2\n", "y = 3\nz = 4\n"));
  a.lines[0] += "\u0000\u0000\u0000";
  const b = new ClaudeLog({ sessionId: S3, cwd: "/w/app" })
    .prompt("create new.py")
    .call("toolu_s3", "Write", { file_path: "/w/app/new.py", content: "a\nb\n" })
    .result("toolu_s3", writeResult("/w/app/new.py", "a\nb\n", null));
  b.lines.splice(1, 2, b.lines[1] + b.lines[2]);
  return { s2: a.text(), s3: b.text() };
}

// Built once: the Claude-log clock is shared and moves on with every record.
const TRANSCRIPTS = transcripts();

/** Writes the dataset; returns its folder. */
export function writeFixture(): string {
  const dir = mkdtempSync(join(tmpdir(), "swechat-fixture-"));
  mkdirSync(join(dir, "data"));
  mkdirSync(join(dir, "transcripts"));
  const t = TRANSCRIPTS;
  writeFileSync(join(dir, "transcripts", `${S2}.jsonl`), t.s2);
  writeFileSync(join(dir, "transcripts", `${S3}.jsonl`), t.s3);

  // Physical order shuffled; S1 spread over both files; a copy of S1's turn 5 (same turn_id).
  const [a, b] = [
    [s1[7], s1[0], s1[12], s1[3], s2[0], s2[1], s2[2], s1[5], s1[1], { ...s1[5] }, s1[9], s1[2]],
    [s4[0], s4[1], s5[0], s5[1], s1[4], s1[6], s1[8], s1[10], s1[11], s3[0], s3[1], s3[2]],
  ];
  // Neutral file names: tables are recognised by their columns.
  writeTable(join(dir, "data", "part-a.parquet"), "conversations", a);
  writeTable(join(dir, "data", "part-b.parquet"), "conversations", b);

  const session = (id: string, repo: string, extra: Row) => ({
    session_id: id,
    repo_id: repo,
    owner_id: repo.split("/")[0],
    checkpoint_ids: JSON.stringify([cp(id)]),
    canonical_checkpoint_pk: cp(id),
    agent: "Claude Code",
    strategy: "manual-commit",
    created_at: new Date(T0),
    files_touched: "[]",
    ...extra,
  });
  writeTable(
    join(dir, "sessions.parquet"),
    "sessions",
    [
      session(S1, REPO, {
        branch: "feature/greet",
        agent_lines: 2,
        human_added: 3,
        human_modified: 0,
        human_removed: 0,
        total_committed: 5,
        agent_percentage: 40,
        session_success: "80",
      }),
      session(S2, REPO, {
        branch: "fix/y",
        agent_lines: 1,
        total_committed: 2,
        agent_percentage: 50,
        session_success: "95",
      }),
      session(S3, REPO, {
        branch: "feat/new",
        agent_lines: 2,
        total_committed: 3,
        agent_percentage: 200 / 3,
        session_success: "70",
      }),
      session(S5, NIMBUS, { branch: "main", agent_lines: 9, total_committed: 9, agent_percentage: 100 }),
      session(S6, REPO, { branch: "main", agent_lines: 0, total_committed: 0, agent_percentage: 0 }),
    ],
    2,
  );
  writeTable(join(dir, "session_logs.parquet"), "session_logs", [
    { session_id: S1, transcript_path: "", session_metadata_raw: "{}" },
    {
      session_id: S2,
      transcript_path: `${S2}.jsonl`,
      session_metadata_raw: JSON.stringify({ checkpoint_transcript_start: 0 }),
    },
    { session_id: S3, transcript_path: `transcripts/${S3}.jsonl`, session_metadata_raw: "not json" },
  ]);
  const checkpoint = (id: string, commits: string[]) => ({
    checkpoint_pk: cp(id),
    checkpoint_id: cp(id).split("#")[1],
    repo_id: cp(id).split("#")[0],
    session_pks: JSON.stringify([id]),
    session_count: 1,
    commit_shas: JSON.stringify(commits),
    commit_count: commits.length,
    unique_author_count: 1,
  });
  writeTable(join(dir, "checkpoints.parquet"), "checkpoints", [
    checkpoint(S1, [C1]),
    checkpoint(S2, [C2]),
    checkpoint(S3, [C3A, C3B, C3C]),
    checkpoint(S5, [C5]),
  ]);
  const commit = (sha: string, s: string, hours: number, patch: string, additions: number) =>
    commitRow({ sha, pk: cp(s), repo: cp(s).split("#")[0], date: new Date(T0 + hours * 3600_000), patch, additions });
  writeTable(
    join(dir, "commits.parquet"),
    "commits",
    [
      commit(C3C, S3, 3, NEW_PY, 2),
      commit(C1, S1, 1, C1_PATCH, 5),
      commit(C2, S2, 1, C2_PATCH, 2),
      commit(C3A, S3, 1, NEW_PY, 2),
      commit(C3B, S3, 2, DOCS, 1),
      commit(C4, S4, 1, UTIL, 1),
      commit(C5, S5, 1, UTIL, 1),
    ],
    3,
  );
  writeTable(join(dir, "repositories.parquet"), "repositories", [
    { repo_id: REPO, name: "app", num_checkpoints: 4 },
    { repo_id: NIMBUS, name: "nimbus", num_checkpoints: 1 },
  ]);
  return dir;
}
