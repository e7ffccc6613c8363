/**
 * Tiny real git repositories with one Entire checkpoint, for the reproductions in repro.test.ts:
 * `git init` in a temp folder, a base commit, the linked commit with a real `Entire-Checkpoint`
 * trailer, and the orphan branch `entire/checkpoints/v1` holding `<id[:2]>/<id[2:]>/0/`.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export const ROOT_IN_LOG = "/home/dev/fixture";

export interface FixtureSpec {
  checkpointId: string;
  sessionId: string;
  agent: "Claude Code" | "Codex";
  base: Record<string, string>;
  /** Files of the linked commit (merged over `base`). */
  commit: Record<string, string>;
  /** Transcript records, one JSONL line each. */
  transcript: object[];
  /** Make the linked commit a merge (`--no-ff`) of a side branch that changed these files. */
  mergeSide?: Record<string, string>;
  /** After the linked commit, another commit with these files carrying the same trailer (a reused checkpoint id). */
  reuse?: Record<string, string>;
  /** A second checkpoint id holding a folder of the same session, carried by no commit. */
  unlinkedCheckpointId?: string;
  /** Symbolic links of the base commit: link path → target (`ln -s target path`). */
  links?: Record<string, string>;
}

/** git with a fixed identity and date, no user or system config (shared by repo-fixture.ts). */
export function run(dir: string, args: string[], date: string): void {
  execFileSync("git", args, {
    cwd: dir,
    stdio: "ignore",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "Ref",
      GIT_AUTHOR_EMAIL: "ref@example.com",
      GIT_COMMITTER_NAME: "Ref",
      GIT_COMMITTER_EMAIL: "ref@example.com",
      GIT_AUTHOR_DATE: date,
      GIT_COMMITTER_DATE: date,
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_CONFIG_SYSTEM: "/dev/null",
    },
  });
}

function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/** Builds the repository; returns its path and a cleanup function. */
export function buildFixture(spec: FixtureSpec): { repo: string; cleanup: () => void } {
  const repo = mkdtempSync(join(tmpdir(), "ref-fixture-"));
  run(repo, ["init", "-q", "-b", "main"], "2026-01-01T10:00:00Z");
  writeFiles(repo, spec.base);
  for (const [path, target] of Object.entries(spec.links ?? {})) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    symlinkSync(target, join(repo, path));
  }
  run(repo, ["add", "-A"], "2026-01-01T10:00:00Z");
  run(repo, ["commit", "-q", "-m", "base"], "2026-01-01T10:00:00Z");
  if (spec.mergeSide) {
    run(repo, ["checkout", "-q", "-b", "side"], "2026-01-01T10:10:00Z");
    writeFiles(repo, spec.mergeSide);
    run(repo, ["add", "-A"], "2026-01-01T10:10:00Z");
    run(repo, ["commit", "-q", "-m", "side work"], "2026-01-01T10:10:00Z");
    run(repo, ["checkout", "-q", "main"], "2026-01-01T10:10:00Z");
    run(repo, ["merge", "-q", "--no-ff", "--no-commit", "side"], "2026-01-01T11:00:00Z");
  }
  writeFiles(repo, spec.commit);
  run(repo, ["add", "-A"], "2026-01-01T11:00:00Z");
  run(repo, ["commit", "-q", "-m", `agent work\n\nEntire-Checkpoint: ${spec.checkpointId}`], "2026-01-01T11:00:00Z");
  if (spec.reuse) {
    writeFiles(repo, spec.reuse);
    run(repo, ["add", "-A"], "2026-01-01T12:00:00Z");
    run(repo, ["commit", "-q", "-m", `later work\n\nEntire-Checkpoint: ${spec.checkpointId}`], "2026-01-01T12:00:00Z");
  }

  const transcript = spec.transcript.map((r) => `${JSON.stringify(r)}\n`).join("");
  run(repo, ["checkout", "-q", "--orphan", "entire/checkpoints/v1"], "2026-01-01T11:00:01Z");
  run(repo, ["rm", "-rq", "--cached", "."], "2026-01-01T11:00:01Z");
  for (const p of [
    ...Object.keys(spec.base),
    ...Object.keys(spec.commit),
    ...Object.keys(spec.mergeSide ?? {}),
    ...Object.keys(spec.reuse ?? {}),
    ...Object.keys(spec.links ?? {}),
  ])
    rmSync(join(repo, p), { force: true });
  for (const id of [spec.checkpointId, ...(spec.unlinkedCheckpointId ? [spec.unlinkedCheckpointId] : [])])
    writeCheckpoint(repo, spec, id, transcript);
  run(repo, ["add", "-A"], "2026-01-01T11:00:01Z");
  run(
    repo,
    [
      "commit",
      "-q",
      "-m",
      `Checkpoint: ${spec.checkpointId}\n\nEntire-Session: ${spec.sessionId}\nEntire-Strategy: manual-commit\nEntire-Agent: ${spec.agent}`,
    ],
    "2026-01-01T11:00:01Z",
  );
  run(repo, ["checkout", "-q", "-f", "main"], "2026-01-01T11:00:02Z");
  return { repo, cleanup: () => rmSync(repo, { recursive: true, force: true }) };
}

function writeCheckpoint(repo: string, spec: FixtureSpec, id: string, transcript: string): void {
  const folder = `${id.slice(0, 2)}/${id.slice(2)}`;
  writeFiles(repo, {
    [`${folder}/metadata.json`]: JSON.stringify(
      {
        checkpoint_id: id,
        strategy: "manual-commit",
        branch: "main",
        checkpoints_count: 1,
        files_touched: Object.keys(spec.commit),
        sessions: [{ metadata: `/${folder}/0/metadata.json`, transcript: `/${folder}/0/full.jsonl` }],
      },
      null,
      2,
    ),
    [`${folder}/0/metadata.json`]: JSON.stringify(
      {
        checkpoint_id: id,
        session_id: spec.sessionId,
        strategy: "manual-commit",
        created_at: "2026-01-01T11:00:00Z",
        branch: "main",
        checkpoints_count: 1,
        files_touched: Object.keys(spec.commit),
        agent: spec.agent,
        checkpoint_transcript_start: 0,
        transcript_lines_at_start: 0,
      },
      null,
      2,
    ),
    [`${folder}/0/full.jsonl`]: transcript,
  });
}

/** A Codex rollout whose only edit is one successful apply_patch with the given `changes` (formats.md §3.1–3.2). */
export function codexRollout(sessionId: string, changes: Record<string, object>, patchText: string): object[] {
  const ts = (s: number) => `2026-01-01T10:30:${String(s).padStart(2, "0")}.000Z`;
  const callId = "call_fixture0001";
  return [
    {
      timestamp: ts(0),
      type: "session_meta",
      payload: {
        id: sessionId,
        timestamp: ts(0),
        cwd: ROOT_IN_LOG,
        originator: "codex_exec",
        cli_version: "0.125.0",
        source: "exec",
        model_provider: "openai",
      },
    },
    {
      timestamp: ts(1),
      type: "turn_context",
      payload: { turn_id: "turn-1", cwd: ROOT_IN_LOG, model: "gpt-5.4", approval_policy: "never" },
    },
    { timestamp: ts(2), type: "event_msg", payload: { type: "user_message", message: "make the change", images: [] } },
    {
      timestamp: ts(3),
      type: "response_item",
      payload: { type: "message", role: "user", content: [{ type: "input_text", text: "make the change" }] },
    },
    {
      timestamp: ts(4),
      type: "response_item",
      payload: {
        type: "custom_tool_call",
        status: "completed",
        call_id: callId,
        name: "apply_patch",
        input: patchText,
      },
    },
    {
      timestamp: ts(5),
      type: "event_msg",
      payload: {
        type: "patch_apply_end",
        call_id: callId,
        turn_id: "turn-1",
        stdout: "Success.",
        stderr: "",
        success: true,
        changes,
        status: "completed",
      },
    },
    {
      timestamp: ts(6),
      type: "response_item",
      payload: {
        type: "custom_tool_call_output",
        call_id: callId,
        output: JSON.stringify({
          output: "Success. Updated the following files:\n",
          metadata: { exit_code: 0, duration_seconds: 0.1 },
        }),
      },
    },
    {
      timestamp: ts(7),
      type: "event_msg",
      payload: {
        type: "token_count",
        info: {
          total_token_usage: {
            input_tokens: 100,
            cached_input_tokens: 0,
            output_tokens: 10,
            reasoning_output_tokens: 0,
            total_tokens: 110,
          },
          last_token_usage: {
            input_tokens: 100,
            cached_input_tokens: 0,
            output_tokens: 10,
            reasoning_output_tokens: 0,
            total_tokens: 110,
          },
        },
      },
    },
  ];
}

/** A Claude Code 2.x transcript whose only edit is one successful Write `update` (formats.md §2.5). */
export function claudeWrite(sessionId: string, path: string, originalFile: string, content: string): object[] {
  const env = (n: number) => ({
    sessionId,
    cwd: ROOT_IN_LOG,
    version: "2.1.29",
    gitBranch: "main",
    userType: "external",
    isSidechain: false,
    uuid: `00000000-0000-4000-8000-00000000000${n}`,
    parentUuid: n === 0 ? null : `00000000-0000-4000-8000-00000000000${n - 1}`,
    timestamp: `2026-01-01T10:30:0${n}.000Z`,
  });
  const file = `${ROOT_IN_LOG}/${path}`;
  return [
    { ...env(0), type: "user", message: { role: "user", content: "rewrite it" } },
    {
      ...env(1),
      type: "assistant",
      requestId: "req_1",
      message: {
        id: "msg_1",
        type: "message",
        role: "assistant",
        model: "claude-sonnet-4-5-20250929",
        content: [{ type: "tool_use", id: "toolu_fixture01", name: "Write", input: { file_path: file, content } }],
        stop_reason: null,
        usage: { input_tokens: 10, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      },
    },
    {
      ...env(2),
      type: "user",
      message: {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_fixture01", content: `The file ${file} has been updated.` },
        ],
      },
      toolUseResult: { type: "update", filePath: file, content, structuredPatch: [], originalFile },
    },
  ];
}
