/**
 * The trajectory's steps → tool calls. Each step is one command and its
 * observation; file commands become FileEdits, as exact as what the agent
 * saw allows (see `FileViews`): whole pre-/post-images for files known
 * whole, whole-line string edits for files known in windows, the bare new
 * text otherwise. Refused commands (the linter's "Your proposed edit has
 * introduced new syntax error(s)", "No replacement was performed", …) are
 * failures and change nothing.
 */
import type { DiagnosticSink, FileEdit, ToolCall } from "../../model";
import { newFileEdit } from "../../model";
import { commandFromAction, commandFromFunction, isFileCommand, type SweCommand } from "./commands";
import { FileViews, linesOf, textOf, windowsOf } from "./file-view";
import { type RawHistoryMessage, type RawStep, stateSchema } from "./schema";
import { normaliseNewlines } from "./submission";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** First line of an observation that says a file command was refused or failed (the file is unchanged). */
const FAILED =
  /^(Your proposed edit has introduced new syntax error|Your edit was not applied|No file open|Usage: |Search text must not be empty|Your search and replace strings are the same|Error:|Invalid |File .* already exists|No replacement was performed|The path .* (is not an absolute path|does not exist|is a directory)|Parameter `|Unrecognized command|No edit history found|The parent directory|Ran into |No changes were made)/;

/** `JSON.parse` that gives `{}` for a bad string (a step's state, a call's arguments). */
export function safeJson(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return {};
  }
}

export function stateOf(step: RawStep | null): { open_file?: string; working_dir?: string } {
  if (!step || step.state === undefined) return {};
  const v = typeof step.state === "string" ? safeJson(step.state) : step.state;
  const r = stateSchema.safeParse(v);
  return r.success ? r.data : {};
}

function commandOf(step: RawStep, message: RawHistoryMessage | null): SweCommand | null {
  const fn = message?.tool_calls?.[0]?.function;
  if (fn?.name) {
    const args = typeof fn.arguments === "string" ? safeJson(fn.arguments) : (fn.arguments ?? {});
    const cmd = commandFromFunction(fn.name, isObject(args) ? args : {});
    if (cmd) return cmd;
  }
  return commandFromAction(step.action ?? "");
}

const norm = (p: string): string => {
  const parts: string[] = [];
  for (const part of p.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return "/" + parts.join("/");
};

/** One tool call per step, ids `step-<n>` (the function-call ids of the log repeat), with each call's command. */
export function readSteps(
  steps: (RawStep | null)[],
  actions: (RawHistoryMessage | null)[],
  cwd0: string,
  sink: DiagnosticSink,
) {
  const views = new FileViews();
  const history = new Map<string, (string[] | null)[]>(); // str_replace_editor undo stack: the text before each edit, null when unknown
  const calls: ToolCall[] = [];
  const commands = new Map<string, SweCommand>();
  let open: string | null = null;
  let unseen = 0;

  steps.forEach((step, i) => {
    if (!step) return;
    const record = i + 1;
    const cwd = stateOf(step).working_dir ?? cwd0;
    const abs = (p: string) => norm(p.startsWith("/") ? p : `${cwd}/${p}`);
    const obs = normaliseNewlines(step.observation ?? "");
    const windows = windowsOf(obs);
    let cmd = commandOf(step, actions[i]);
    if (cmd === null) {
      sink.warn(
        "swe-agent-action-unparsed",
        `step ${record}: cannot read the action ${JSON.stringify((step.action ?? "").slice(0, 80))}: kept as an unknown tool`,
        record,
      );
      cmd = {
        kind: "tool",
        name: (step.action ?? "").trim().split(/\s+/)[0] || "unknown",
        args: { action: step.action ?? "" },
      };
    }
    const id = `step-${record}`;
    commands.set(id, cmd);
    const firstLine = obs.split("\n").find((l) => l.trim() !== "") ?? "";
    const failed = FAILED.test(firstLine);

    let path: string | null = null;
    if (cmd.kind === "create" || cmd.kind === "editor") path = abs(cmd.path);
    else if (cmd.kind === "edit-range" || cmd.kind === "edit-replace" || cmd.kind === "insert") {
      const shown = !failed ? windows.find((w) => w.path !== null)?.path : undefined;
      path = shown
        ? abs(shown)
        : (open ??
          (stateOf(step).open_file && stateOf(step).open_file !== "n/a" ? abs(stateOf(step).open_file!) : null));
    }

    const fileCommand = isFileCommand(cmd);
    let success: boolean | null;
    if (fileCommand || cmd.kind === "open" || cmd.kind === "tool") success = !failed;
    else if (cmd.kind === "submit") success = true;
    else success = null; // shell: SWE-agent logs no exit status

    const edits: FileEdit[] = [];
    if (fileCommand && success && path === null) {
      sink.warn(
        "swe-agent-no-open-file",
        `step ${record}: ${cmd.name} succeeded but no open file is known: its lines are not attributed`,
        record,
      );
    } else if (fileCommand && success && path !== null) {
      const made = fileEditOf(cmd, path, views, history);
      if (made.unseen) {
        unseen++;
        sink.info(
          "swe-agent-edit-lines-unseen",
          `step ${record}: ${cmd.name} on ${path} replaces lines the agent never displayed: its new lines are kept, their position is not`,
          record,
        );
      }
      if (made.edit) edits.push(made.edit);
      views.refresh(
        path,
        windows.filter((w) => w.path === null || abs(w.path) === path),
      );
    }
    if (!fileCommand || !success) for (const w of windows) if (w.path !== null && !failed) views.see(abs(w.path), w);
    if (cmd.kind === "shell") forgetRemoved(cmd.command, abs, views);
    const shown = !failed ? windows.find((w) => w.path !== null && w.total !== null) : undefined;
    if (shown?.path) open = abs(shown.path);
    else if (cmd.kind === "create" && success) open = abs(cmd.path);

    calls.push({
      id,
      name: cmd.name,
      input: inputOf(cmd, path),
      timestamp: null,
      record,
      result_record: record,
      success,
      error: success === false ? firstLine.slice(0, 200) : null,
      sidechain: false,
      file_edits: edits,
    });
  });
  if (unseen > 0)
    sink.info(
      "swe-agent-unseen-summary",
      `${unseen} edit(s) replaced lines never displayed: replay places them without context`,
    );
  return { calls, commands };
}

/** `rm <paths>` in a shell command: the files are gone, so what we knew of them is stale. */
function forgetRemoved(command: string, abs: (p: string) => string, views: FileViews): void {
  for (const part of command.split(/&&|;|\n/)) {
    const words = part.trim().split(/\s+/);
    if (words[0] !== "rm") continue;
    for (const w of words.slice(1)) if (!w.startsWith("-")) views.forget(abs(w));
  }
}

function inputOf(cmd: SweCommand, path: string | null): Record<string, unknown> {
  switch (cmd.kind) {
    case "create":
      return { path };
    case "edit-range":
      return { path, start: cmd.start, end: cmd.end, replacement: cmd.text };
    case "edit-replace":
      return { path, search: cmd.search, replace: cmd.replace, replace_all: cmd.replaceAll };
    case "insert":
      return { path, text: cmd.text, line: cmd.line };
    case "editor": {
      const out: Record<string, unknown> = { command: cmd.command, path };
      if (cmd.fileText !== null) out.file_text = cmd.fileText;
      if (cmd.oldStr !== null) out.old_str = cmd.oldStr;
      if (cmd.newStr !== null) out.new_str = cmd.newStr;
      if (cmd.insertLine !== null) out.insert_line = cmd.insertLine;
      return out;
    }
    case "open":
      return { path: cmd.path };
    case "shell":
      return { command: cmd.command };
    case "tool":
      return cmd.args;
    case "submit":
      return {};
  }
}

const fileEdit = newFileEdit;

/**
 * The FileEdit of one successful file command. With the whole file known the
 * edit is exact (pre- and post-image); else the replaced lines are taken from
 * the last window that showed them (a string edit); else only the new text is
 * known (`unseen`: an edit with an empty old text).
 */
function fileEditOf(
  cmd: SweCommand,
  path: string,
  views: FileViews,
  history: Map<string, (string[] | null)[]>,
): { edit: FileEdit | null; unseen: boolean } {
  const full = views.full(path);
  // The tool keeps an undo stack per file: the text before each str_replace/insert, the created text for create.
  if (cmd.kind === "editor" && (cmd.command === "str_replace" || cmd.command === "insert"))
    pushHistory(history, path, full);
  if (cmd.kind === "editor" && cmd.command === "create") pushHistory(history, path, linesOf(cmd.fileText ?? ""));
  const images = (after: string[]) => {
    views.setFull(path, after);
    return {
      edit: fileEdit(path, "edit", { pre_image: full === null ? null : textOf(full), post_image: textOf(after) }),
      unseen: false,
    };
  };
  const stringEdit = (old: string, now: string, replaceAll = false) => {
    views.forget(path);
    return {
      edit: fileEdit(path, "edit", { edits: [{ old_string: old, new_string: now, replace_all: replaceAll }] }),
      unseen: old === "",
    };
  };
  switch (cmd.kind) {
    case "create":
      // `create` writes one empty line (the window then shows "1 lines total" and an empty line 1).
      views.setFull(path, [""]);
      return { edit: fileEdit(path, "write", { pre_image: "", post_image: "\n" }), unseen: false };
    case "edit-range": {
      const added = linesOf(cmd.text);
      if (full !== null)
        return images([...full.slice(0, cmd.start - 1), ...added, ...full.slice(Math.min(cmd.end, full.length))]);
      const old = views.range(path, cmd.start, cmd.end);
      return stringEdit(old === null ? "" : textOf(old), textOf(added));
    }
    case "edit-replace": {
      if (full !== null && textOf(full).includes(cmd.search)) {
        const before = textOf(full);
        const after = cmd.replaceAll
          ? before.split(cmd.search).join(cmd.replace)
          : before.replace(cmd.search, () => cmd.replace);
        return images(linesOf(after));
      }
      const widened = cmd.replaceAll ? null : views.widen(path, cmd.search, cmd.replace);
      return widened ? stringEdit(widened.old, widened.now) : stringEdit(cmd.search, cmd.replace, cmd.replaceAll);
    }
    case "insert":
      return insertAt(
        linesOf(cmd.text),
        cmd.line ?? full?.length ?? views.total(path),
        path,
        full,
        views,
        images,
        stringEdit,
      );
    case "editor":
      switch (cmd.command) {
        case "create":
          views.setFull(path, linesOf(cmd.fileText ?? ""));
          return { edit: fileEdit(path, "write", { pre_image: "", post_image: cmd.fileText ?? "" }), unseen: false };
        case "str_replace": {
          const oldStr = cmd.oldStr ?? "";
          if (full !== null && oldStr !== "" && textOf(full).includes(oldStr))
            return images(
              linesOf(
                textOf(full)
                  .split(oldStr)
                  .join(cmd.newStr ?? ""),
              ),
            );
          const widened = views.widen(path, oldStr, cmd.newStr ?? "");
          return widened ? stringEdit(widened.old, widened.now) : stringEdit(oldStr, cmd.newStr ?? "");
        }
        case "insert":
          return insertAt(
            cmd.newStr === null ? [] : cmd.newStr.split("\n"),
            cmd.insertLine,
            path,
            full,
            views,
            images,
            stringEdit,
          );
        case "undo_edit": {
          const previous = history.get(path)?.pop();
          if (previous !== undefined && previous !== null) {
            views.setFull(path, previous);
            return {
              edit: fileEdit(path, "edit", {
                pre_image: full === null ? null : textOf(full),
                post_image: textOf(previous),
              }),
              unseen: false,
            };
          }
          views.forget(path);
          return { edit: fileEdit(path, "edit", {}), unseen: false };
        }
      }
      return { edit: null, unseen: false };
    default:
      return { edit: null, unseen: false };
  }
}

function insertAt(
  added: string[],
  line: number | null,
  path: string,
  full: string[] | null,
  views: FileViews,
  images: (after: string[]) => { edit: FileEdit; unseen: boolean },
  stringEdit: (old: string, now: string) => { edit: FileEdit; unseen: boolean },
) {
  // Inserted after `line` (1-based); `null`: the line count is unknown (end of a file never fully shown).
  if (full !== null && line !== null) {
    const at = Math.max(0, Math.min(line, full.length));
    return images([...full.slice(0, at), ...added, ...full.slice(at)]);
  }
  if (line !== null && line >= 1) {
    const anchor = views.line(path, line);
    if (anchor !== null) return stringEdit(textOf([anchor]), textOf([anchor, ...added]));
  }
  if (line === 0) {
    const next = views.line(path, 1);
    if (next !== null) return stringEdit(textOf([next]), textOf([...added, next]));
  }
  return stringEdit("", textOf(added));
}

function pushHistory(history: Map<string, (string[] | null)[]>, path: string, lines: string[] | null): void {
  let stack = history.get(path);
  if (!stack) history.set(path, (stack = []));
  stack.push(lines);
}
