/**
 * The tool categories of SWE-chat's own analysis (its notebook's Table 5,
 * `swechat.py`): shell commands by their first word, MCP and agent tools by
 * name, a few renames, and a handful of tools kept under their own name.
 */

const SHELL_TOOLS = new Set(["bash", "run_shell_command", "exec_command", "exec", "shell_command", "powershell", "execute", "shell"]);
const FILE_COMMANDS = new Set(
  "cd ls bd cat mkdir rm mv cp find touch chmod chown head tail pwd echo wc ln stat du df tree less more sort uniq cut tee realpath basename dirname file rmdir open xargs lsof".split(" "),
);
const BUILD_COMMANDS = new Set(
  "go cargo python python3 uv mise bun npm npx pnpm yarn xcodebuild swift make rake gradle mvn node deno tsx poetry pip pip3 pipenv rustup composer dart flutter dotnet clang clang++ gcc g++ cmake ninja bazel just turbo nx expo bundle pod fastlane sbt ant".split(" "),
);
const NET_COMMANDS = new Set("curl wget ssh scp rsync ftp sftp nc netcat telnet ping nmap dig nslookup".split(" "));
const AGENT_TOOLS = new Set(["task", "taskcreate", "taskget", "taskupdate", "taskoutput", "taskstop", "sendmessage", "tasklist", "agent"]);
const RENAMES: Record<string, string> = {
  read_file: "read",
  write_file: "write",
  multiedit: "edit",
  apply_patch: "edit",
  applypatch: "edit",
  replace: "edit",
  webfetch: "web",
  websearch: "web",
  web_fetch: "web",
  google_web_search: "web",
  todowrite: "TodoWrite",
  toolsearch: "ToolSearch",
  askuserquestion: "AskUserQuestion",
  skill: "Skill",
  enterplanmode: "EnterPlanMode",
  exitplanmode: "ExitPlanMode",
};
const KEPT = new Set(["read", "grep", "glob", "write", "edit", "web"]);

export const TOOL_CATEGORIES = [
  "read", "grep", "glob", "bash:file", "bash:build", "bash:net", "bash", "git/gh", "write", "edit", "web", "agent", "mcp",
  "TodoWrite", "ToolSearch", "AskUserQuestion", "Skill", "EnterPlanMode", "ExitPlanMode", "other",
] as const;
export type ToolCategory = (typeof TOOL_CATEGORIES)[number];

/** The first word of a shell command that is not a comment, an env assignment or `sudo`; `python3.12` → `python`. */
export function firstCommandWord(command: string): string | null {
  for (const rawLine of command.split("\n")) {
    const line = rawLine.trim();
    if (line === "" || line.startsWith("#")) continue;
    for (const word of line.split(/\s+/)) {
      if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(word) || word === "sudo" || word === "(" || word === "{") continue;
      const bare = word.replace(/^[("'{]+/, "").replace(/[;)"'}]+$/, "");
      const base = bare.slice(bare.lastIndexOf("/") + 1);
      if (/^python[0-9.]*$/.test(base)) return "python";
      return base || null;
    }
  }
  return null;
}

export function shellCategory(command: string | null): ToolCategory {
  const word = command ? firstCommandWord(command) : null;
  if (word === null) return "bash";
  if (word === "git" || word === "gh") return "git/gh";
  if (word === "grep" || word === "rg") return "grep";
  if (FILE_COMMANDS.has(word)) return "bash:file";
  if (BUILD_COMMANDS.has(word)) return "bash:build";
  if (NET_COMMANDS.has(word)) return "bash:net";
  return "bash";
}

function commandOf(input: unknown): string | null {
  if (!input || typeof input !== "object") return null;
  const record = input as Record<string, unknown>;
  const command = record.command ?? record.cmd;
  if (typeof command === "string") return command;
  if (Array.isArray(command)) {
    const words = command.filter((w): w is string => typeof w === "string");
    // Codex wraps commands as ["bash", "-lc", "<script>"].
    if (words.length >= 3 && (words[1] === "-lc" || words[1] === "-c")) return words[2];
    return words.join(" ");
  }
  return null;
}

export function toolCategory(name: string, input: unknown): ToolCategory {
  const lower = name.toLowerCase();
  if (SHELL_TOOLS.has(lower)) return shellCategory(commandOf(input));
  if (lower.startsWith("mcp__") || lower.startsWith("mcp_")) return "mcp";
  if (AGENT_TOOLS.has(lower)) return "agent";
  const renamed = RENAMES[lower];
  if (renamed) return renamed as ToolCategory;
  if (KEPT.has(lower)) return lower as ToolCategory;
  if (lower === "notebookedit") return "edit";
  return "other";
}

/** Tools whose successful calls change files (metrics.md §3), across agents. Failed calls carry no file edits, so the name decides. */
const FILE_CHANGING_TOOLS = new Set([
  "write", "edit", "multiedit", "notebookedit", "mcp__acp__write", "mcp__acp__edit",
  "apply_patch", "applypatch", "write_file", "replace", "edit_file", "save_file", "str_replace_editor", "str_replace_based_edit_tool",
]);

export function isFileChangingCall(call: { name: string; file_edits: readonly unknown[] }): boolean {
  return call.file_edits.length > 0 || FILE_CHANGING_TOOLS.has(call.name.toLowerCase());
}
