/**
 * SWE-agent actions → one command each. The v0 format logs only the action
 * text (`edit 287:295\n…\nend_of_edit`, `str_replace_editor str_replace /p
 * --old_str '…' --new_str '…'`); the function-calling format also logs the
 * model's `tool_calls` with JSON arguments, which are preferred.
 *
 * Commands of the tool bundles (SWE-agent `tools/`):
 * - `windowed` / `windowed_edit_linting`: `open`, `goto`, `scroll_up/down`,
 *   `create <file>`, `edit <start>:<end>` + lines + `end_of_edit`;
 * - `windowed_edit_replace`: `edit <search> <replace> [replace_all]`,
 *   `insert <text> [line]`;
 * - `edit_anthropic`: `str_replace_editor <view|create|str_replace|insert|undo_edit> <path> --…`;
 * - `search`: `find_file`, `search_dir`, `search_file`; `submit`.
 * Anything else is a shell command.
 */

export type SweCommand =
  | { kind: "create"; name: string; path: string }
  | { kind: "edit-range"; name: string; start: number; end: number; text: string }
  | { kind: "edit-replace"; name: string; search: string; replace: string; replaceAll: boolean }
  | { kind: "insert"; name: string; text: string; line: number | null }
  | {
      kind: "editor";
      name: string;
      command: string;
      path: string;
      fileText: string | null;
      oldStr: string | null;
      newStr: string | null;
      insertLine: number | null;
    }
  | { kind: "open"; name: string; path: string | null }
  | { kind: "tool"; name: string; args: Record<string, unknown> }
  | { kind: "shell"; name: "bash"; command: string }
  | { kind: "submit"; name: "submit" };

/** Commands the windowed tools show a file window for (they change the open file or the view). */
const VIEW_COMMANDS = new Set(["goto", "scroll_up", "scroll_down"]);
const SEARCH_COMMANDS = new Set(["find_file", "search_dir", "search_file", "filemap"]);

/** POSIX-like word splitting: single quotes literal, double quotes with `\` escapes, backslash escapes outside quotes. */
export function shellWords(text: string): string[] | null {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) return null;
      word += text.slice(i + 1, end);
      i = end;
      inWord = true;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < text.length && text[j] !== '"'; j++) {
        if (text[j] === "\\" && j + 1 < text.length && '"\\$`\n'.includes(text[j + 1])) {
          if (text[j + 1] !== "\n") word += text[j + 1];
          j++;
        } else word += text[j];
      }
      if (j >= text.length) return null;
      i = j;
      inWord = true;
    } else if (c === "\\" && i + 1 < text.length) {
      if (text[i + 1] !== "\n") word += text[i + 1];
      i++;
      inWord = true;
    } else if (c === " " || c === "\t" || c === "\n" || c === "\r") {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

const RANGE_EDIT = /^edit\s+(\d+)\s*:\s*(\d+)[ \t]*\r?\n?([\s\S]*?)(?:\r?\n)?end_of_edit\s*$/;

/** Reads one v0 action text. Returns null when the text cannot be split (unbalanced quotes). */
export function commandFromAction(action: string): SweCommand | null {
  const text = action.replace(/^\s+/, "").replace(/\s+$/, "");
  const range = RANGE_EDIT.exec(text);
  if (range)
    return { kind: "edit-range", name: "edit", start: Number(range[1]), end: Number(range[2]), text: range[3] };
  const first = /^\S+/.exec(text)?.[0] ?? "";
  if (first === "submit" && text === "submit") return { kind: "submit", name: "submit" };
  const known =
    first === "create" ||
    first === "edit" ||
    first === "insert" ||
    first === "open" ||
    first === "str_replace_editor" ||
    VIEW_COMMANDS.has(first) ||
    SEARCH_COMMANDS.has(first);
  if (!known) return { kind: "shell", name: "bash", command: text };
  const words = shellWords(text);
  if (words === null) return null;
  const args = words.slice(1);
  switch (first) {
    case "create":
      return args[0] ? { kind: "create", name: "create", path: args[0] } : null;
    case "edit":
      if (args.length < 2) return null;
      return { kind: "edit-replace", name: "edit", search: args[0], replace: args[1], replaceAll: truthy(args[2]) };
    case "insert":
      if (args.length < 1) return null;
      return {
        kind: "insert",
        name: "insert",
        text: args[0],
        line: args[1] !== undefined && /^\d+$/.test(args[1]) ? Number(args[1]) : null,
      };
    case "open":
      return { kind: "open", name: "open", path: args[0] ?? null };
    case "str_replace_editor":
      return editorFromWords(args);
    default:
      return { kind: "tool", name: first, args: { args } };
  }
}

function editorFromWords(args: string[]): SweCommand | null {
  const [command, path] = args;
  if (!command || !path) return null;
  const flags: Record<string, string[]> = {};
  let current: string | null = null;
  for (const word of args.slice(2)) {
    if (word.startsWith("--")) {
      current = word.slice(2);
      flags[current] = [];
    } else if (current) flags[current].push(word);
  }
  const one = (k: string) => (flags[k] ? flags[k].join(" ") : null);
  const line = one("insert_line");
  return {
    kind: "editor",
    name: "str_replace_editor",
    command,
    path,
    fileText: one("file_text"),
    oldStr: one("old_str"),
    newStr: one("new_str"),
    insertLine: line !== null && /^-?\d+$/.test(line) ? Number(line) : null,
  };
}

/** Reads one function call of the function-calling format (`{name, arguments}`). */
export function commandFromFunction(name: string, args: Record<string, unknown>): SweCommand | null {
  const str = (k: string): string | null => (typeof args[k] === "string" ? (args[k] as string) : null);
  const num = (k: string): number | null => {
    const v = args[k];
    if (typeof v === "number" && Number.isFinite(v)) return v;
    if (typeof v === "string" && /^-?\d+$/.test(v)) return Number(v);
    return null;
  };
  switch (name) {
    case "bash":
      return { kind: "shell", name: "bash", command: str("command") ?? "" };
    case "submit":
      return { kind: "submit", name: "submit" };
    case "create": {
      const path = str("filename") ?? str("path") ?? str("file_name");
      return path ? { kind: "create", name, path } : null;
    }
    case "edit": {
      const search = str("search");
      if (search !== null)
        return {
          kind: "edit-replace",
          name,
          search,
          replace: str("replace") ?? "",
          replaceAll: args.replace_all === true || truthy(str("replace_all") ?? undefined),
        };
      const start = num("start_line") ?? num("start");
      const end = num("end_line") ?? num("end");
      const text = str("replacement_text") ?? str("replacement") ?? str("text");
      return start !== null && end !== null && text !== null ? { kind: "edit-range", name, start, end, text } : null;
    }
    case "insert": {
      const text = str("text");
      return text === null ? null : { kind: "insert", name, text, line: num("line") };
    }
    case "open":
      return { kind: "open", name, path: str("path") ?? str("file") };
    case "str_replace_editor": {
      const command = str("command");
      const path = str("path");
      if (!command || !path) return null;
      return {
        kind: "editor",
        name,
        command,
        path,
        fileText: str("file_text"),
        oldStr: str("old_str"),
        newStr: str("new_str"),
        insertLine: num("insert_line"),
      };
    }
    default:
      return { kind: "tool", name, args };
  }
}

function truthy(word: string | undefined): boolean {
  return word !== undefined && /^(true|1|yes)$/i.test(word);
}

/** The category of SWE-chat's Table 5 for a SWE-agent command (shell commands are categorised by the shared `toolCategory`). */
export function sweAgentCategory(command: SweCommand): string | null {
  switch (command.kind) {
    case "create":
      return "write";
    case "edit-range":
    case "edit-replace":
    case "insert":
      return "edit";
    case "editor":
      return command.command === "view" ? "read" : command.command === "create" ? "write" : "edit";
    case "open":
      return "read";
    case "tool":
      if (VIEW_COMMANDS.has(command.name)) return "read";
      if (command.name === "find_file") return "glob";
      if (command.name === "search_dir" || command.name === "search_file") return "grep";
      return null;
    default:
      return null;
  }
}

/** Whether the command is meant to change a file (metrics.md §3: SWE-agent `edit`/`create`/`str_replace_editor`). */
export function isFileCommand(command: SweCommand): boolean {
  if (command.kind === "editor") return command.command !== "view";
  return (
    command.kind === "create" ||
    command.kind === "edit-range" ||
    command.kind === "edit-replace" ||
    command.kind === "insert"
  );
}
