import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import type { Diagnostic } from "../../src/model";
import { readPromptSessions } from "../../src/taskflow";
import { corpusPath, sharedCorpusPath, sharedCorpusSkip } from "../helpers/corpus";

const CORPUS = corpusPath();

test("user messages of every transcript kind among the sample files, one copy per session", async () => {
  const diagnostics: Diagnostic[] = [];
  const sessions = await readPromptSessions(CORPUS, diagnostics);
  const count = (format: string) => sessions.filter((s) => s.format === format).map((s) => s.messages.length);
  // Counts read off the files by hand (ORIGIN.md lists them): the Gemini session JSON has one user message; the two
  // OpenCode exports 1 and 2 (the @-mention's synthetic Read parts are not messages); the SWE-agent trajectories one task each.
  assert.deepEqual(count("gemini"), [1]);
  assert.deepEqual(count("opencode"), [1, 2]);
  // The typed OpenCode prompts are one-liners; the synthetic parts beside the @-mention carry a whole workflow file.
  for (const m of sessions.filter((x) => x.format === "opencode").flatMap((x) => x.messages))
    assert.ok(m.length < 200, m.slice(0, 60));
  assert.deepEqual(count("swe-agent"), [1, 1]);
  // Claude Code through the project's adapter: the 1.0.51 excerpt 1, CHANGELOG sessions 4 and 4, c6/39a44ea03d 1 and 2.
  assert.deepEqual(count("claude-code").sort(), [1, 1, 2, 4, 4]);
  // SpecStory: Cursor 1, Claude Code 8 (11 User headers, 3 of them only "[Request interrupted by user…]" markers), Codex 2.
  assert.deepEqual(count("specstory").sort(), [1, 2, 8]);
  assert.equal(sessions.length, 13);
  // The SpecStory adapter reports the three interruptions it did not count.
  assert.ok(diagnostics.some((d) => d.code === "specstory-not-a-prompt" && /^3 /.test(d.message)));
  for (const s of sessions) for (const m of s.messages) assert.ok(m.trim().length > 0, `${s.ref}: empty message`);
});

test("user messages of the shared corpus's Codex rollout and Aider log", { skip: sharedCorpusSkip }, async () => {
  const diagnostics: Diagnostic[] = [];
  const codex = await readPromptSessions(sharedCorpusPath("entire", "entireio-external-agents"), diagnostics);
  const aider = await readPromptSessions(sharedCorpusPath("aider"), diagnostics);
  // The Codex rollout: 2 user_message events (its AGENTS.md and environment_context user items are injected, not typed).
  assert.deepEqual(
    codex.map((s) => [s.format, s.messages.length]),
    [["codex", 2]],
  );
  // Aider: one session; /code echoes count once, /commit, /help, /model … are aider's own commands.
  assert.deepEqual(
    aider.map((s) => [s.format, s.messages.length]),
    [["aider", 16]],
  );
  assert.ok(diagnostics.some((d) => d.code === "taskflow-aider-command"));
  for (const s of [...codex, ...aider])
    for (const m of s.messages) assert.ok(m.trim().length > 0, `${s.ref}: empty message`);
});

test("a DataClaw export: one session per line, user messages only (through the project's adapter)", async () => {
  const dir = mkdtempSync(join(tmpdir(), "sce-tf-dataclaw-"));
  const file = join(dir, "conversations.jsonl");
  // Written for this test: two sessions, with 2 and 1 user messages between assistant turns.
  const line = (id: string, users: string[]) =>
    JSON.stringify({
      session_id: id,
      project: "p",
      model: "m",
      messages: users.flatMap((u) => [
        { role: "user", content: u },
        { role: "assistant", content: "done" },
      ]),
      stats: { user_messages: users.length },
    });
  writeFileSync(
    file,
    [line("d1", ["fix the crash on login", "commit"]), line("d2", ["explain the cache layer"])].join("\n") + "\n",
  );
  const sessions = await readPromptSessions(file, []);
  assert.deepEqual(
    sessions.map((x) => [x.session_id, x.format, x.messages.length]),
    [
      ["d1", "dataclaw", 2],
      ["d2", "dataclaw", 1],
    ],
  );
});

test("a folder without transcripts reads nothing and says so; a missing path is an error row", async () => {
  const dir = mkdtempSync(join(tmpdir(), "sce-tf-prompts-"));
  writeFileSync(join(dir, "notes.json"), '{"hello": 1}');
  writeFileSync(join(dir, "broken.traj"), "{ not json");
  const diagnostics: Diagnostic[] = [];
  assert.deepEqual(await readPromptSessions(dir, diagnostics), []);
  assert.deepEqual(diagnostics.map((d) => d.code).sort(), ["taskflow-document-unreadable", "taskflow-files-skipped"]);
  const missing: Diagnostic[] = [];
  assert.deepEqual(await readPromptSessions(join(dir, "nope"), missing), []);
  assert.equal(missing[0].code, "input-missing");
});
