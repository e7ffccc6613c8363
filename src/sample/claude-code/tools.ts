/**
 * The agent's tools (Read, Write, Edit, MultiEdit, Bash, Glob, Grep,
 * ExitPlanMode): each call really changes the shared workspace and returns
 * the tool_result content and `toolUseResult` Claude Code would log.
 */
import { structuredPatch } from "diff";
import { countOccurrences, replaceOnce } from "../text";
import type { Json } from "../text";
import type { Workspace } from "../workspace";
import type { Style } from "./style";

export interface ToolResult {
  content: string | Json[];
  toolUseResult: unknown;
  isError?: boolean;
  /** Bash-like results carry an explicit `is_error: false`. */
  explicitOk?: boolean;
}

export interface RunContext {
  toolUseId: string;
  messageId: string;
}

export interface ToolRun {
  name: string;
  input: Json;
  run: (ctx: RunContext) => ToolResult;
}

function catN(text: string): string {
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines.map((line, i) => `${String(i + 1).padStart(6)}\u2192${line}`).join("\n");
}

function hunks(path: string, before: string, after: string): Json[] {
  const patch = structuredPatch(path, path, before, after, undefined, undefined, { context: 3 });
  return patch.hunks.map((h) => ({
    oldStart: h.oldStart,
    oldLines: h.oldLines,
    newStart: h.newStart,
    newLines: h.newLines,
    lines: h.lines,
  }));
}

export class Tools {
  constructor(
    readonly ws: Workspace,
    /** The repository root as this session sees it (a worktree root for worktree sessions). */
    readonly root: string,
    readonly style: Style,
  ) {}

  abs(path: string): string {
    return path.startsWith("/") ? path : `${this.root}/${path}`;
  }

  /** Repo-relative path, or null for a path outside the repository. */
  private rel(path: string): string | null {
    if (!path.startsWith("/")) return path;
    return path.startsWith(`${this.root}/`) ? path.slice(this.root.length + 1) : null;
  }

  private current(path: string): string | undefined {
    const rel = this.rel(path);
    return rel === null ? this.ws.outside.get(path) : this.ws.files.get(rel);
  }

  private store(path: string, text: string): void {
    const rel = this.rel(path);
    if (rel === null) this.ws.outside.set(path, text);
    else this.ws.files.set(rel, text);
  }

  read(path: string): ToolRun {
    const file = this.abs(path);
    return {
      name: "Read",
      input: { file_path: file },
      run: () => {
        const text = this.current(file);
        if (text === undefined) throw new Error(`sample: Read of missing ${file}`);
        const n = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
        return {
          content: catN(text),
          toolUseResult: {
            type: "text",
            file: { filePath: file, content: text, numLines: n, startLine: 1, totalLines: n },
          },
        };
      },
    };
  }

  write(path: string, content: string): ToolRun {
    const file = this.abs(path);
    return {
      name: "Write",
      input: { file_path: file, content },
      run: () => {
        const before = this.current(file);
        this.store(file, content);
        if (this.style === "1.0") {
          return {
            content:
              before === undefined ? `File created successfully at: ${file}` : `The file ${file} has been updated.`,
            toolUseResult: {
              type: before === undefined ? "create" : "update",
              filePath: file,
              content,
              structuredPatch: before === undefined ? [] : hunks(file, before, content),
            },
          };
        }
        if (before === undefined) {
          return {
            content: `File created successfully at: ${file}`,
            toolUseResult: { type: "create", filePath: file, content, structuredPatch: [], originalFile: null },
          };
        }
        return {
          content: `The file ${file} has been updated successfully.`,
          toolUseResult: {
            type: "update",
            filePath: file,
            content,
            structuredPatch: hunks(file, before, content),
            originalFile: before,
          },
        };
      },
    };
  }

  /**
   * A successful Edit. With `userText`, the person rewrote the proposal in
   * the IDE before accepting it: the file gets `userText`, the result says
   * `userModified: true`, and `input.new_string` keeps the agent's proposal.
   */
  edit(
    path: string,
    oldString: string,
    newString: string,
    opts: { replaceAll?: boolean; userText?: string } = {},
  ): ToolRun {
    const file = this.abs(path);
    const replaceAll = opts.replaceAll ?? false;
    const input: Json =
      this.style === "1.0"
        ? { file_path: file, old_string: oldString, new_string: newString }
        : { replace_all: replaceAll, file_path: file, old_string: oldString, new_string: newString };
    return {
      name: "Edit",
      input,
      run: () => {
        const before = this.current(file);
        if (before === undefined) throw new Error(`sample: Edit of missing ${file}`);
        const n = countOccurrences(before, oldString);
        if (n === 0 || (n > 1 && !replaceAll)) throw new Error(`sample: Edit of ${file} matches ${n} times`);
        const applied = opts.userText ?? newString;
        const after = replaceAll ? before.split(oldString).join(applied) : replaceOnce(before, oldString, applied);
        this.store(file, after);
        const result: Json = {
          filePath: file,
          oldString,
          newString: applied,
          originalFile: before,
          structuredPatch: hunks(file, before, after),
          userModified: opts.userText !== undefined,
        };
        if (this.style === "2.x") result.replaceAll = replaceAll;
        const content =
          opts.userText !== undefined
            ? `The user modified your proposed changes before accepting them. The file ${file} has been updated successfully.`
            : `The file ${file} has been updated successfully.`;
        return { content, toolUseResult: result };
      },
    };
  }

  /** An Edit whose old_string is not in the file: is_error, string toolUseResult. */
  editNotFound(path: string, oldString: string, newString: string): ToolRun {
    const file = this.abs(path);
    return {
      name: "Edit",
      input: { replace_all: false, file_path: file, old_string: oldString, new_string: newString },
      run: () => {
        const before = this.current(file);
        if (before === undefined || before.includes(oldString))
          throw new Error(`sample: editNotFound of ${file} would apply`);
        const message = `String to replace not found in file.\nString: ${oldString}`;
        return {
          content: `<tool_use_error>${message}</tool_use_error>`,
          toolUseResult: `Error: ${message}`,
          isError: true,
        };
      },
    };
  }

  /** A Write the user rejected in the permission prompt: nothing is written. */
  writeRejected(path: string, content: string): ToolRun {
    const file = this.abs(path);
    return {
      name: "Write",
      input: { file_path: file, content },
      run: () => ({
        content:
          "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.",
        toolUseResult: "User rejected tool use",
        isError: true,
      }),
    };
  }

  /** Claude Code 1.0.x MultiEdit: edits applied in order, `originalFileContents` in the result. */
  multiEdit(path: string, edits: { old_string: string; new_string: string }[]): ToolRun {
    const file = this.abs(path);
    return {
      name: "MultiEdit",
      input: { file_path: file, edits },
      run: () => {
        const before = this.current(file);
        if (before === undefined) throw new Error(`sample: MultiEdit of missing ${file}`);
        let after = before;
        for (const e of edits) {
          if (countOccurrences(after, e.old_string) !== 1)
            throw new Error(`sample: MultiEdit of ${file} does not match once`);
          after = replaceOnce(after, e.old_string, e.new_string);
        }
        this.store(file, after);
        const summary = edits
          .map(
            (e, i) => `${i + 1}. Replaced "${e.old_string.split("\n")[0]}..." with "${e.new_string.split("\n")[0]}..."`,
          )
          .join("\n");
        return {
          content: `Applied ${edits.length} edits to ${file}:\n${summary}`,
          toolUseResult: {
            filePath: file,
            edits: edits.map((e) => ({ old_string: e.old_string, new_string: e.new_string, replace_all: false })),
            originalFileContents: before,
            structuredPatch: hunks(file, before, after),
            userModified: false,
          },
        };
      },
    };
  }

  /** A shell command; `effect` is whatever it does to files (no structured record of it). */
  bash(command: string, description: string, stdout: string, effect?: () => void): ToolRun {
    return {
      name: "Bash",
      input: { command, description },
      run: () => {
        if (effect) effect();
        return {
          content: stdout,
          toolUseResult: { stdout, stderr: "", interrupted: false, isImage: false },
          explicitOk: true,
        };
      },
    };
  }

  glob(pattern: string, prefix: string, suffix: string): ToolRun {
    return {
      name: "Glob",
      input: { pattern },
      run: () => {
        const names: string[] = [];
        this.ws.files.forEach((_, rel) => {
          if (rel.startsWith(prefix) && rel.endsWith(suffix)) names.push(this.abs(rel));
        });
        names.sort();
        return {
          content: names.join("\n"),
          toolUseResult: { filenames: names, durationMs: 14, numFiles: names.length, truncated: false },
        };
      },
    };
  }

  grep(pattern: string, rels: string[]): ToolRun {
    return {
      name: "Grep",
      input: { pattern, output_mode: "files_with_matches" },
      run: () => ({
        content: `Found ${rels.length} file${rels.length === 1 ? "" : "s"}\n${rels.join("\n")}`,
        toolUseResult: { mode: "files_with_matches", filenames: rels, numFiles: rels.length },
      }),
    };
  }

  exitPlanMode(plan: string): ToolRun {
    return {
      name: "ExitPlanMode",
      input: { plan },
      run: () => ({
        content: "User has approved your plan. You can now start coding.",
        toolUseResult: { plan, isAgent: false },
      }),
    };
  }
}
