/**
 * SWE-chat's Table 5 categories (swe-chat.md §6, src/analyze/tool-category.ts) on real tool calls of the shared
 * corpus: each case names the file it comes from, and the test first checks the command (or tool name) is there, so
 * the list stays a list of real calls. Every shell category is covered; of the name categories, those the corpus
 * holds (the rest — web, mcp, ToolSearch, the plan-mode tools — are in test/swechat/tool-category.test.ts).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { TOOL_CATEGORIES, toolCategory } from "../../src/analyze/tool-category";
import { corpusPath, sharedCorpusSkip } from "../helpers/corpus";

const KIRO = "entire/entireio-external-agents/c3/b191fe1158/0/full.jsonl"; // Codex rollout: exec_command {cmd}
const CHANGELOG = "entire/entireio-cli-changelog/60/61721bc409/0/full.jsonl"; // Claude Code: Bash {command}
const GEMINI = "entire/entireio-cli/ab/2b9748b105/0/full.jsonl"; // Gemini CLI: run_shell_command, read_file, write_file
const SPECSTORY = "specstory/getspecstory__2026-01-28_13-10-29Z-take-a-look-at.claude-code.md";
const CLI = "entire/entireio-cli/c6/39a44ea03d/0/full.jsonl"; // Claude Code
const HAPPY = "claude-code/happy-cli__400429ba.excerpt.jsonl";
const SWE_AGENT = "swe-agent/pydicom__pydicom-1458.v0-default.traj";

// [file, tool name, command or null, expected category, why]
const CASES: [string, string, string | null, string, string][] = [
  [KIRO, "exec_command", "git status --short", "git/gh", "first word git"],
  [CHANGELOG, "Bash", "gh api orgs/entireio/members --jq '.[].login'", "git/gh", "first word gh"],
  [KIRO, "exec_command", "rg --files ../../ | rg 'go", "grep", "rg"],
  [KIRO, "exec_command", "sed -n '1,80p' go.mod", "bash", "sed is in none of the command sets"],
  [KIRO, "exec_command", "find .. -path '*/.claude/skills/entire-external-agent/SKILL.md'", "bash:file", "find"],
  [KIRO, "exec_command", "pwd", "bash:file", "pwd"],
  [SWE_AGENT, "bash", "rm reproduce.py", "bash:file", "rm"],
  [SWE_AGENT, "bash", "ls -F", "bash:file", "ls"],
  [KIRO, "exec_command", "go test ./...", "bash:build", "go"],
  [SWE_AGENT, "bash", "python reproduce.py", "bash:build", "python*"],
  [
    KIRO,
    "exec_command",
    "GOCACHE=/tmp/go-build-cache go test ./...",
    "bash",
    "an environment assignment is the first word (swechat.py strips none)",
  ],
  [KIRO, "exec_command", "golangci-lint run ./...", "bash", "not in the build set"],
  // The corpus holds no network call the agent ran; this one is a command line of a CI workflow an agent read.
  [SPECSTORY, "Bash", "curl -X POST -H 'Content-type: application/json' --data @payload.json", "bash:net", "curl"],
  [CLI, "Read", null, "read", "name"],
  [CLI, "Grep", null, "grep", "name"],
  [CHANGELOG, "Glob", null, "glob", "name"],
  [CLI, "Edit", null, "edit", "name"],
  [GEMINI, "read_file", null, "read", "renamed"],
  [GEMINI, "write_file", null, "write", "renamed"],
  [KIRO, "TodoWrite", null, "TodoWrite", "case kept"],
  [SPECSTORY, "AskUserQuestion", null, "AskUserQuestion", "case kept"],
  [KIRO, "Skill", null, "Skill", "case kept"],
  [HAPPY, "Task", null, "agent", "agent tools"],
  [GEMINI, "run_shell_command", null, "bash", "a shell tool without a command or bash_category"],
  [
    "entire/entireio-cli/c6/39a44ea03d/1/full.jsonl",
    "web_fetch",
    null,
    "other",
    "Gemini's name is not one of the renames",
  ],
];

// The Codex sample (entireio/external-agents) has no licence: only the shared corpus holds it.
test("Table 5 categories on real calls of the corpus, every shell category at least once", {
  skip: sharedCorpusSkip,
}, () => {
  const texts = new Map<string, string>();
  const text = (f: string) => texts.get(f) ?? (texts.set(f, readFileSync(corpusPath(f), "utf8")), texts.get(f)!);
  for (const [file, name, command, expected, why] of CASES) {
    assert.ok(text(file).includes(command ?? name), `${file} holds ${command ?? name}`);
    const input = command === null ? {} : name === "exec_command" ? { cmd: command } : { command };
    assert.equal(toolCategory(name, input), expected, `${name} ${command ?? ""}: ${why}`);
  }
  const shell = ["git/gh", "grep", "bash:file", "bash:build", "bash:net", "bash"];
  for (const c of shell)
    assert.ok(
      CASES.some((x) => x[3] === c),
      `shell category ${c} covered`,
    );
  for (const [, , , c] of CASES) assert.ok((TOOL_CATEGORIES as readonly string[]).includes(c));
});
