/**
 * A SWE-chat dataset whose commits are those of a real git repository built here, placed as the clone
 * `clones/acme/tool` (`--repos`); the timeline and its hand-worked numbers are in groups-clone.test.ts.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkpointRow, commitRow, writeTable } from "./fixture";

const REPO = "acme/tool";
const T0 = Date.parse("2026-05-01T09:00:00.000Z");
export const A = "aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa";
export const B = "bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb";
const pk = (k: string) => `${REPO}#${k.repeat(6)}`;
const ROOT = "/home/u/tool";

export function git(dir: string, args: string[], at = 0): string {
  const date = `${Math.floor((T0 + at * 1000) / 1000)} +0000`;
  const r = spawnSync("git", args, {
    cwd: dir,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "P",
      GIT_AUTHOR_EMAIL: "p@example.com",
      GIT_COMMITTER_NAME: "P",
      GIT_COMMITTER_EMAIL: "p@example.com",
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_CONFIG_SYSTEM: "/dev/null",
    },
  });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

function commit(dir: string, files: Record<string, string>, at: number): string {
  for (const [p, text] of Object.entries(files)) writeFileSync(join(dir, p), text);
  git(dir, ["add", "-A"], at);
  git(dir, ["commit", "-q", "-m", `at ${at}`], at);
  return git(dir, ["rev-parse", "HEAD"]).trim();
}

export function buildCloneFixture(): {
  dataset: string;
  clones: string;
  x1: string;
  x2: string;
  side: string;
  root: string;
} {
  const root = mkdtempSync(join(tmpdir(), "swechat-clone-"));
  const clone = join(root, "clones", "acme", "tool");
  mkdirSync(clone, { recursive: true });
  git(clone, ["init", "-q", "-b", "main"]);
  commit(clone, { "README.md": "tool\n" }, 0);
  const x1 = commit(clone, { "greet.py": "a1\na2\nb1\nh1\n" }, 100);
  // A person's commit on a side branch while the group is at work, named by no checkpoint (group-work-outside).
  git(clone, ["checkout", "-q", "-b", "side"], 240);
  const side = commit(clone, { "greet.py": "a1\na2\nb1\nh1\nside\n" }, 250);
  git(clone, ["checkout", "-q", "main"], 260);
  const x2 = commit(clone, { "greet.py": "a1\na2\nb2\nh1\n" }, 300);
  const dataset = join(root, "dataset");
  mkdirSync(dataset);
  const rows: Record<string, unknown>[] = [];
  const row = (session: string, k: string, turn: number, at: number, fields: Record<string, unknown>) =>
    rows.push({
      turn_id: `${session}#${turn}`,
      session_id: session,
      checkpoint_pk: pk(k),
      repo_id: REPO,
      turn_number: turn,
      timestamp: new Date(T0 + at * 1000),
      agent: "Claude Code",
      ...fields,
    });
  const call = (session: string, k: string, turn: number, at: number, id: string, name: string, input: object) => {
    row(session, k, turn, at, {
      turn_type: "tool_use",
      role: "tool_use",
      tool_name: name,
      tool_call_id: id,
      tool_input_json: JSON.stringify(input),
      content: JSON.stringify(input),
      file_path: `${ROOT}/greet.py`,
    });
    row(session, k, turn + 1, at + 1, {
      turn_type: "tool_result",
      role: "tool_result",
      tool_call_id: id,
      content: "ok",
    });
  };
  row(A, "k1", 0, 5, { turn_type: "user_prompt", role: "user", content: "write greet" });
  call(A, "k1", 1, 10, "toolu_a", "Write", { file_path: `${ROOT}/greet.py`, content: "a1\na2\n" });
  row(B, "k2", 0, 15, { turn_type: "user_prompt", role: "user", content: "extend greet" });
  call(B, "k2", 1, 20, "toolu_b1", "Edit", {
    file_path: `${ROOT}/greet.py`,
    old_string: "a2\n",
    new_string: "a2\nb1\n",
  });
  call(B, "k2", 3, 200, "toolu_b2", "Edit", { file_path: `${ROOT}/greet.py`, old_string: "b1\n", new_string: "b2\n" });
  writeTable(join(dataset, "conversations.parquet"), "conversations", rows);
  const session = (s: string, checkpoints: string[]) => ({
    session_id: s,
    repo_id: REPO,
    checkpoint_ids: JSON.stringify(checkpoints.map(pk)),
    canonical_checkpoint_pk: pk(checkpoints[checkpoints.length - 1]),
    agent: "Claude Code",
    created_at: new Date(T0),
    files_touched: JSON.stringify(["greet.py"]),
    session_success: "50",
  });
  writeTable(join(dataset, "sessions.parquet"), "sessions", [session(A, ["k1"]), session(B, ["k1", "k2"])]);
  const checkpoint = (k: string, sessions: string[], commits: string[]) =>
    checkpointRow(REPO, pk(k), k.repeat(6), sessions, commits);
  writeTable(join(dataset, "checkpoints.parquet"), "checkpoints", [
    checkpoint("k1", [A, B], [x1]),
    checkpoint("k2", [B], [x2]),
  ]);
  const commitOf = (sha: string, k: string, at: number, additions: number) =>
    commitRow(
      {
        sha,
        pk: pk(k),
        repo: REPO,
        date: new Date(T0 + at * 1000),
        patch: git(clone, ["show", "--format=", "--patch", sha]),
        additions,
      },
      `at ${at}`,
    );
  writeTable(join(dataset, "commits.parquet"), "commits", [commitOf(x1, "k1", 100, 4), commitOf(x2, "k2", 300, 1)]);
  writeTable(join(dataset, "repositories.parquet"), "repositories", [
    { repo_id: REPO, name: "tool", num_checkpoints: 2 },
  ]);
  return { dataset, clones: join(root, "clones"), x1, x2, side, root };
}
