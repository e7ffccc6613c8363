/**
 * The tool categories of SWE-chat's own analysis, exactly as `tool_category`
 * in `swechat.py` (SALT-NLP/SWE-chat @ 8465db2a; research/swe-chat.md §6):
 * - the name is lowercased and trimmed;
 * - shell tools (bash, run_shell_command, exec_command, exec, shell_command,
 *   powershell, execute) go by the first word of the first non-blank line
 *   of the command that is not a comment (words starting with `python` →
 *   python); with no command, `bash_category == "git"` means git; then
 *   git/gh → git/gh, grep/rg → grep, file, build and network command sets →
 *   bash:file, bash:build, bash:net, anything else → bash;
 * - `mcp__*` / `mcp_*` → mcp; task, taskcreate, taskget, taskupdate,
 *   taskoutput, taskstop, sendmessage, tasklist → agent;
 * - renames: read_file → read, write_file → write, multiedit, apply_patch,
 *   applypatch, replace → edit, webfetch, websearch → web, and the case of
 *   TodoWrite, ToolSearch, AskUserQuestion, Skill, EnterPlanMode, ExitPlanMode;
 * - else the name itself when it is one of the categories (read, grep, glob,
 *   write, edit, web, agent, mcp, bash, …), otherwise "other".
 * So Codex's `shell`, Gemini's `web_fetch` or Claude's `NotebookEdit` are
 * "other", as in the paper's Table 5. No prefix such as `sudo`, `FOO=1` or
 * `/usr/bin/` is stripped from the command's first word (swechat.py does not).
 */

import { patchTextOfCall } from "../ingest/codex";
const SHELL_TOOLS = new Set([
  "bash",
  "run_shell_command",
  "exec_command",
  "exec",
  "shell_command",
  "powershell",
  "execute",
]);
const FILE_COMMANDS = new Set(
  "cd ls bd cat mkdir rm mv cp find touch chmod chown head tail pwd echo wc ln stat du df tree less more sort uniq cut tee realpath basename dirname file rmdir open xargs lsof".split(
    " ",
  ),
);
const BUILD_COMMANDS = new Set(
  "go cargo python python3 uv mise bun npm npx pnpm yarn xcodebuild swift make rake gradle mvn node deno tsx poetry pip pip3 pipenv rustup composer dart flutter dotnet clang clang++ gcc g++ cmake ninja bazel just turbo nx expo bundle pod fastlane sbt ant".split(
    " ",
  ),
);
const NET_COMMANDS = new Set("curl wget ssh scp rsync ftp sftp nc netcat telnet ping nmap dig nslookup".split(" "));
const AGENT_TOOLS = new Set([
  "task",
  "taskcreate",
  "taskget",
  "taskupdate",
  "taskoutput",
  "taskstop",
  "sendmessage",
  "tasklist",
]);
const RENAMES: Record<string, string> = {
  read_file: "read",
  write_file: "write",
  multiedit: "edit",
  apply_patch: "edit",
  applypatch: "edit",
  replace: "edit",
  webfetch: "web",
  websearch: "web",
  todowrite: "TodoWrite",
  toolsearch: "ToolSearch",
  askuserquestion: "AskUserQuestion",
  skill: "Skill",
  enterplanmode: "EnterPlanMode",
  exitplanmode: "ExitPlanMode",
};

export const TOOL_CATEGORIES = [
  "read",
  "grep",
  "glob",
  "bash:file",
  "bash:build",
  "bash:net",
  "bash",
  "git/gh",
  "write",
  "edit",
  "web",
  "agent",
  "mcp",
  "TodoWrite",
  "ToolSearch",
  "AskUserQuestion",
  "Skill",
  "EnterPlanMode",
  "ExitPlanMode",
  "other",
] as const;
export type ToolCategory = (typeof TOOL_CATEGORIES)[number];

/** Python's `str.splitlines()` separators. */
const LINE_BREAKS = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;

/** `_first_word` of swechat.py: the first word of the first non-blank line not starting with `#`; `python*` → python; "" when none. */
export function firstCommandWord(command: string): string {
  for (const raw of command.split(LINE_BREAKS)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const word = line.split(/\s+/)[0];
    return word.startsWith("python") ? "python" : word;
  }
  return "";
}

export function shellCategory(command: string | null, bashCategory: string | null = null): ToolCategory {
  let word = "";
  if (command !== null && command.trim() !== "") word = firstCommandWord(command);
  else if (bashCategory !== null && bashCategory.toLowerCase() === "git") word = "git";
  if (word === "git" || word === "gh") return "git/gh";
  if (word === "grep" || word === "rg") return "grep";
  if (FILE_COMMANDS.has(word)) return "bash:file";
  if (BUILD_COMMANDS.has(word)) return "bash:build";
  if (NET_COMMANDS.has(word)) return "bash:net";
  return "bash";
}

/** The command of a shell call's input (Codex gives `["bash", "-lc", script]`: the script). */
function commandOf(input: unknown): string | null {
  if (!input || typeof input !== "object") return null;
  const record = input as Record<string, unknown>;
  const command = record.command ?? record.cmd;
  if (typeof command === "string") return command;
  if (Array.isArray(command)) {
    const words = command.filter((w): w is string => typeof w === "string");
    if (words.length >= 3 && (words[1] === "-lc" || words[1] === "-c")) return words[2];
    return words.join(" ");
  }
  return null;
}

const CATEGORY_NAMES = new Set<string>(TOOL_CATEGORIES);

/** SWE-chat's category of one call; `bashCategory` is the conversations table's column, when there is one. */
export function toolCategory(name: string, input: unknown, bashCategory: string | null = null): ToolCategory {
  const lower = name.toLowerCase().trim();
  if (SHELL_TOOLS.has(lower)) return shellCategory(commandOf(input), bashCategory);
  if (lower.startsWith("mcp__") || lower.startsWith("mcp_")) return "mcp";
  if (AGENT_TOOLS.has(lower)) return "agent";
  const renamed = RENAMES[lower];
  if (renamed) return renamed as ToolCategory;
  return CATEGORY_NAMES.has(lower) ? (lower as ToolCategory) : "other";
}

/** Tools whose successful calls change files (metrics.md §3), across agents. Failed calls carry no file edits, so the name decides. */
const FILE_CHANGING_TOOLS = new Set([
  "write",
  "edit",
  "multiedit",
  "notebookedit",
  "mcp__acp__write",
  "mcp__acp__edit",
  "apply_patch",
  "applypatch",
  "patch",
  "write_file",
  "replace",
  "smart_edit",
  "edit_file",
  "save_file",
  "str_replace_editor",
  "str_replace_based_edit_tool",
]);

/**
 * A file-changing call, whatever its outcome: it carries file edits, its tool is one that changes files, or
 * it is a shell call running `apply_patch` with a patch (Codex intercepts it; metrics.md §3 counts it as an
 * apply_patch call, so a failed one is a failed edit call, though it carries no edits).
 */
export function isFileChangingCall(call: { name: string; file_edits: readonly unknown[]; input?: unknown }): boolean {
  if (call.file_edits.length > 0 || FILE_CHANGING_TOOLS.has(call.name.toLowerCase())) return true;
  return call.input !== undefined && patchTextOfCall(call.name, call.input) !== null;
}
