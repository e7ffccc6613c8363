import assert from "node:assert/strict";
import { test } from "node:test";
import { toolCategory } from "../../src/analyze/tool-category";

/**
 * Each case follows `tool_category` of swechat.py (SALT-NLP/SWE-chat @ 8465db2a) by hand:
 * lowercase + strip the name; shell tools by the first word of the first non-blank,
 * non-comment line (no prefix stripped; python* → python); bash_category "git" only when
 * the command is empty; mcp, agent tools, renames; else the name if it is a category.
 */
const cases: [string, unknown, string | null, string][] = [
  ["Bash", { command: "git status" }, null, "git/gh"],
  ["bash", { command: "# look for it\n\n   rg foo src" }, null, "grep"],
  ["Bash", { command: "python3.12 -m pytest" }, null, "bash:build"],
  ["Bash", { command: "make test" }, null, "bash:build"],
  ["Bash", { command: "cat a.txt | head" }, null, "bash:file"],
  ["run_shell_command", { command: "curl -s x" }, null, "bash:net"],
  ["Bash", { command: "sudo npm i" }, null, "bash"], // "sudo" is the first word
  ["Bash", { command: "/usr/bin/git log" }, null, "bash"], // no basename taken
  ["Bash", { command: "FOO=1 npm test" }, null, "bash"], // no env assignment skipped
  ["Bash", { command: "pytest -q" }, null, "bash"],
  ["exec_command", {}, "git", "git/gh"], // no command: bash_category decides
  ["exec_command", { command: "   " }, "GIT", "git/gh"], // a blank command counts as none
  ["exec_command", { command: "# only a comment" }, "git", "bash"], // a command, but no word
  ["shell", { command: ["bash", "-lc", "ls"] }, null, "other"], // Codex's shell is not in SWE-chat's shell set
  ["mcp__github__create_issue", {}, null, "mcp"],
  ["mcp_linear", {}, null, "mcp"],
  ["Task", {}, null, "agent"],
  ["Agent", {}, null, "agent"], // not an agent tool, but "agent" is a category name
  ["TodoWrite", {}, null, "TodoWrite"],
  ["exitplanmode", {}, null, "ExitPlanMode"],
  ["read_file", {}, null, "read"],
  [" Grep ", {}, null, "grep"],
  ["Glob", {}, null, "glob"],
  ["write_file", {}, null, "write"],
  ["MultiEdit", {}, null, "edit"],
  ["apply_patch", {}, null, "edit"],
  ["replace", {}, null, "edit"],
  ["WebFetch", {}, null, "web"],
  ["web_fetch", {}, null, "other"],
  ["NotebookEdit", {}, null, "other"],
  ["LS", {}, null, "other"],
];

test("tool categories exactly as swechat.py", () => {
  for (const [name, input, bash, expected] of cases)
    assert.equal(toolCategory(name, input, bash), expected, `${name} ${JSON.stringify(input)} ${bash}`);
});
