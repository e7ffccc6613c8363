/**
 * One synthetic SWE-chat session: its conversation rows (every column of the
 * real schema), its checkpoints and commits (git-format patches built from
 * what the agent wrote, part kept, part changed by a "person"), and, for a
 * few sessions, a raw Claude Code transcript with pre-images.
 *
 * Distributions (per session, seeded): rows lognormal (median 355, σ 1.1,
 * mean ≈ 650 = 11.6 M / 17,819); prompts ≈ rows / 50; tool calls ≈ 17.5 % of
 * rows (2.03 M / 11.6 M), each a tool_use and a tool_result row; the other
 * rows assistant text, thinking, progress, snapshots and system events.
 * Tool mix: the notebook's Table 5 (research/swe-chat.md §7). Agents: Claude
 * Code 83 %, OpenCode 11 %, Codex 4 %, Gemini CLI 1 %, others. Text sizes
 * lognormal; tool results cut at 10 KB like the release.
 */
import { structuredPatch } from "diff";
import { type Rng, lognormal, pick, weighted } from "./random";

export const CONV_ROW_KEYS = [
  "turn_id",
  "session_id",
  "checkpoint_pk",
  "repo_id",
  "user_id",
  "turn_number",
  "conversation_turn_number",
  "role",
  "turn_type",
  "is_conversational",
  "content",
  "model",
  "timestamp",
  "input_tokens",
  "output_tokens",
  "cache_creation_input_tokens",
  "cache_read_input_tokens",
  "is_continuation",
  "is_first_turn",
  "word_count",
  "char_count",
  "tool_name",
  "tool_call_id",
  "file_path",
  "command",
  "pattern",
  "tool_input_json",
  "category",
  "bash_category",
  "queue_op_subtype",
  "agent",
  "strategy",
  "language",
  "prompt_intent",
  "prompt_pushback",
] as const;
export type ConvRow = unknown[]; // values in CONV_ROW_KEYS order

export interface GenCommit {
  sha: string;
  checkpoint_pk: string;
  date: number;
  patch: string;
  additions: number;
  deletions: number;
  agentKept: number;
}
export interface GenCheckpoint {
  pk: string;
  sessions: string[];
  commits: GenCommit[];
}
export interface GenSession {
  id: string;
  repo: string;
  agent: string;
  created: number;
  rows: ConvRow[];
  checkpoints: GenCheckpoint[];
  transcript: string | null;
  tokens: { input: number; output: number; cacheCreation: number; cacheRead: number; calls: number };
  toolCalls: number;
  prompts: number;
}

const AGENTS: [string, number][] = [
  ["Claude Code", 83],
  ["OpenCode", 10.6],
  ["Codex", 3.6],
  ["Gemini CLI", 1],
  ["unknown", 0.9],
  ["Cursor", 0.5],
  ["Copilot CLI", 0.4],
];
const MODELS: Record<string, [string, number][]> = {
  "Claude Code": [
    ["claude-opus-4-6", 50],
    ["claude-sonnet-4-5-20250929", 30],
    ["claude-opus-4-5-20251101", 15],
    ["claude-haiku-4-5-20251001", 5],
  ],
  OpenCode: [
    ["claude-sonnet-4-5", 60],
    ["gpt-5.1-codex", 40],
  ],
  Codex: [
    ["gpt-5.1-codex", 70],
    ["gpt-5-codex", 30],
  ],
  "Gemini CLI": [["gemini-2.5-pro", 100]],
  unknown: [["claude-sonnet-4-5-20250929", 100]],
  Cursor: [["claude-sonnet-4-5", 100]],
  "Copilot CLI": [["gpt-5.1", 100]],
};
// Table 5 of the notebook (v2 tool calls by category, %).
const CATEGORIES: [string, number][] = [
  ["read", 14.7],
  ["grep", 7.7],
  ["glob", 0.7],
  ["bash:file", 12.3],
  ["bash:build", 5.9],
  ["bash:net", 1.6],
  ["bash", 15.7],
  ["git/gh", 10.5],
  ["write", 2.3],
  ["edit", 14.0],
  ["web", 0.3],
  ["agent", 5.7],
  ["mcp", 1.4],
  ["TodoWrite", 0.4],
  ["ToolSearch", 0.6],
  ["AskUserQuestion", 0.4],
  ["Skill", 0.4],
  ["EnterPlanMode", 0.03],
  ["ExitPlanMode", 0.1],
  ["other", 5.3],
];
const COMMANDS: Record<string, string[]> = {
  "bash:file": [
    "ls -la src",
    "cat package.json",
    "find . -name '*.ts' | head -50",
    "mkdir -p build/out",
    "rm -rf dist",
    "wc -l src/*.ts",
    "head -40 README.md",
    "echo done",
    "cd app && ls",
  ],
  "bash:build": [
    "npm test",
    "npm run build",
    "go test ./...",
    "cargo build --release",
    "python3 -m pytest -q",
    "pnpm lint",
    "make all",
    "npx tsc --noEmit",
    "uv run pytest",
  ],
  "bash:net": [
    "curl -s http://localhost:3000/health",
    "wget -q https://example.com/x.tar.gz",
    "ssh build01 uptime",
    "ping -c 1 db",
  ],
  bash: [
    "pytest -q tests/test_api.py",
    "docker compose up -d",
    "jq '.items | length' data.json",
    "psql -c 'select 1'",
    "terraform plan",
    "kubectl get pods",
  ],
  "git/gh": [
    "git status",
    "git diff --stat",
    "git log --oneline -20",
    "git add -A && git commit -m 'wip'",
    "gh pr view 42",
    "git checkout -b feature/x",
  ],
};
const OTHER_TOOLS = ["LS", "BashOutput", "KillShell", "NotebookRead", "SlashCommand", "ListMcpResourcesTool"];
const FILLER: [string, number][] = [
  ["assistant_response", 30],
  ["assistant_thinking", 22],
  ["progress", 28],
  ["file_snapshot", 8],
  ["system_event", 6],
  ["queue_operation", 3],
  ["summary", 1],
  ["system_injected", 2],
];

export interface TextSource {
  /** `n` characters of word-like text (a slice of a large corpus, made unique). */
  prose(rng: Rng, n: number): string;
  codeLine(rng: Rng): string;
}

export interface SessionSpec {
  index: number;
  id: string;
  repo: string;
  user: string;
  start: number;
  checkpointIds: () => string;
  commitSha: () => string;
  withTranscript: boolean;
}

export function generateSession(rng: Rng, text: TextSource, spec: SessionSpec): GenSession {
  const agent = spec.withTranscript ? "Claude Code" : weighted(rng, AGENTS);
  const model = weighted(rng, MODELS[agent]);
  const rowsTarget = Math.min(25_000, Math.max(6, Math.round(lognormal(rng, 355, 1.1))));
  const prompts = Math.max(1, Math.round((rowsTarget / 50) * (0.5 + rng())));
  const toolTarget = Math.round(rowsTarget * 0.175);
  const root = `/Users/${spec.user}/code/${spec.repo.split("/")[1]}`;
  const nFiles = 2 + Math.floor(rng() * 10);
  const files = Array.from(
    { length: nFiles },
    (_, i) =>
      `${root}/src/${pick(rng, ["api", "core", "ui", "lib", "util"])}/${pick(rng, ["index", "handler", "model", "view", "store"])}${i}.${pick(rng, ["ts", "py", "go", "rs", "tsx"])}`,
  );
  const state = new Map<string, string[]>(); // what the agent last saw of each file
  const committed = new Map<string, string[]>(); // each file as of the last commit (or its first pre-image: [] for a file the agent created)
  const added = new Map<string, string[]>(); // lines the agent added in the current checkpoint slice
  const nCheckpoints = spec.withTranscript ? 1 : Math.min(20, 1 + Math.floor(-Math.log(1 - rng()) * 2.7));
  const cpAt = new Set(Array.from({ length: nCheckpoints - 1 }, () => Math.floor(rng() * toolTarget)));
  const rows: ConvRow[] = [];
  const checkpoints: GenCheckpoint[] = [];
  const transcript: string[] = [];
  const tokens = { input: 0, output: 0, cacheCreation: 0, cacheRead: 0, calls: 0 };
  let t = spec.start;
  let turn = 0;
  let conversational = 0;
  let cpIndex = 0;
  let cachedContext = 20_000;
  let cpPk = `${spec.repo}#${spec.checkpointIds()}`;

  const row = (
    type: string,
    role: string,
    content: string | null,
    extra: Partial<Record<(typeof CONV_ROW_KEYS)[number], unknown>> = {},
  ) => {
    t += 1000 + Math.floor(rng() * 20_000);
    const conv = type === "user_prompt" || type === "assistant_response";
    const r: ConvRow = [
      `${spec.id}#${turn}`,
      spec.id,
      null,
      spec.repo,
      spec.user,
      turn,
      conv ? conversational++ : null,
      role,
      type,
      conv,
      content,
      null,
      t,
      null,
      null,
      null,
      null,
      false,
      turn === 0,
      content === null ? null : Math.round(content.length / 6),
      content === null ? null : content.length,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      agent,
      "manual-commit",
      null,
      null,
      null,
    ];
    for (const [k, v] of Object.entries(extra)) r[CONV_ROW_KEYS.indexOf(k as never)] = v;
    rows.push(r);
    turn++;
    return r;
  };
  const usage = (r: ConvRow, out: number) => {
    const input = 2 + Math.floor(rng() * 40);
    const creation = Math.floor(rng() * 3000);
    cachedContext += creation;
    r[11] = model;
    r[13] = input;
    r[14] = out;
    r[15] = creation;
    r[16] = cachedContext;
    tokens.input += input;
    tokens.output += out;
    tokens.cacheCreation += creation;
    tokens.cacheRead += cachedContext;
    tokens.calls++;
  };
  const closeCheckpoint = (final: boolean) => {
    const commits: GenCommit[] = [];
    const nCommits = rng() < 0.08 ? 2 : 1;
    for (let c = 0; c < nCommits; c++)
      commits.push(
        makeCommit(
          rng,
          text,
          spec.commitSha(),
          cpPk,
          t + 60_000 * (c + 1),
          c === 0 ? added : new Map(),
          state,
          committed,
          root,
        ),
      );
    checkpoints.push({ pk: cpPk, sessions: [spec.id], commits });
    added.clear();
    cpIndex++;
    if (!final) cpPk = `${spec.repo}#${spec.checkpointIds()}`;
  };

  let tools = 0;
  const perPrompt = Math.max(1, Math.round(toolTarget / prompts));
  for (let p = 0; p < prompts || tools < toolTarget; p++) {
    const prompt = text.prose(rng, Math.round(lognormal(rng, 200, 1.0)));
    row("user_prompt", "user", prompt, {
      language: "english",
      prompt_intent: pick(rng, ["create new code", "debug", "refactor", "understand", "test", "git", "other"]),
      prompt_pushback: "non_pushback",
      is_continuation: p > 0 && rng() < 0.02,
    });
    if (spec.withTranscript)
      transcript.push(
        JSON.stringify({
          type: "user",
          sessionId: spec.id,
          cwd: root,
          timestamp: new Date(t).toISOString(),
          message: { role: "user", content: prompt },
        }),
      );
    for (let k = 0; k < perPrompt && (tools < toolTarget || k === 0); k++) {
      if (rng() < 0.6)
        usage(
          row(
            rng() < 0.5 ? "assistant_response" : "assistant_thinking",
            "assistant",
            text.prose(rng, Math.round(lognormal(rng, 400, 1.0))),
          ),
          50 + Math.floor(rng() * 800),
        );
      tools++;
      const call = toolCall(
        rng,
        text,
        spec.withTranscript ? pick(rng, ["write", "edit", "read", "bash"]) : weighted(rng, CATEGORIES),
        agent,
        files,
        state,
        added,
        committed,
      );
      const id = agent === "Codex" ? `call_${spec.index}_${turn}` : `toolu_${spec.index}_${turn}`;
      const input = JSON.stringify(call.input);
      const use = row("tool_use", "tool_use", input, {
        tool_name: call.name,
        tool_call_id: id,
        file_path: call.file ?? null,
        command: call.command ?? null,
        pattern: call.pattern ?? null,
        tool_input_json: input,
        category: call.research ? "Research" : "Action",
        bash_category: call.bashCategory ?? null,
      });
      usage(use, 30 + Math.floor(rng() * 400));
      row("tool_result", "tool_result", call.result, { tool_call_id: id });
      if (spec.withTranscript) transcript.push(...claudeRecords(spec.id, root, model, id, call, t));
      for (let f = Math.floor(lognormal(rng, 1.2, 0.8)); f > 0; f--) {
        const kind = weighted(rng, FILLER);
        const r = row(
          kind,
          kind.startsWith("assistant") ? "assistant" : "metadata",
          text.prose(rng, Math.round(lognormal(rng, kind === "assistant_thinking" ? 700 : 250, 1.0))),
        );
        if (kind === "queue_operation") r[29] = "user_prompt_enqueued";
      }
      if (cpAt.has(tools) && cpIndex < nCheckpoints - 1) closeCheckpoint(false);
    }
  }
  while (turn < rowsTarget) row("progress", "metadata", text.prose(rng, Math.round(lognormal(rng, 250, 1.0))));
  closeCheckpoint(true);
  // The rows name the canonical checkpoint (the last one: its record is the most complete).
  for (const r of rows) r[2] = cpPk;
  return {
    id: spec.id,
    repo: spec.repo,
    agent,
    created: spec.start,
    rows,
    checkpoints,
    transcript: spec.withTranscript ? transcript.join("\n") + "\n" : null,
    tokens,
    toolCalls: tools,
    prompts,
  };
}

interface Call {
  name: string;
  input: Record<string, unknown>;
  result: string;
  file?: string;
  command?: string;
  pattern?: string;
  bashCategory?: string;
  research?: boolean;
  /** For raw transcripts: the file before and after. */
  before?: string | null;
  after?: string;
  edit?: { old: string; neu: string };
}

function toolCall(
  rng: Rng,
  text: TextSource,
  category: string,
  agent: string,
  files: string[],
  state: Map<string, string[]>,
  added: Map<string, string[]>,
  committed: Map<string, string[]>,
): Call {
  const file = pick(rng, files);
  const resultText = (median: number) => text.prose(rng, Math.min(10_240, Math.round(lognormal(rng, median, 1.3))));
  const shellName =
    agent === "Codex"
      ? "exec_command"
      : agent === "Gemini CLI"
        ? "run_shell_command"
        : agent === "OpenCode"
          ? "bash"
          : "Bash";
  switch (category) {
    case "read":
      return {
        name: agent === "Gemini CLI" ? "read_file" : agent === "OpenCode" ? "read" : "Read",
        input: { file_path: file },
        file,
        result: resultText(1800),
        research: true,
      };
    case "grep":
    case "glob": {
      const pattern = pick(rng, ["TODO", "handleRequest", "*.test.ts", "import .* from", "src/**/*.py"]);
      return {
        name: category === "grep" ? "Grep" : "Glob",
        input: { pattern, path: "." },
        pattern,
        result: resultText(400),
        research: true,
      };
    }
    case "write": {
      const lines = Array.from({ length: 5 + Math.floor(lognormal(rng, 30, 0.8)) }, () => text.codeLine(rng));
      const before = state.has(file) ? state.get(file)!.join("\n") + "\n" : null;
      if (!committed.has(file)) committed.set(file, []); // created by the agent
      state.set(file, lines);
      added.set(file, [...(added.get(file) ?? []), ...lines]);
      const content = lines.join("\n") + "\n";
      if (agent === "Codex")
        return {
          name: "apply_patch",
          input: {
            input: `*** Begin Patch\n*** Add File: ${file}\n${lines.map((l) => "+" + l).join("\n")}\n*** End Patch`,
          },
          file,
          result: "Success. Updated the following files:\nA " + file,
          before,
          after: content,
        };
      return {
        name: agent === "Gemini CLI" ? "write_file" : agent === "OpenCode" ? "write" : "Write",
        input: agent === "OpenCode" ? { filePath: file, content } : { file_path: file, content },
        file,
        result: `File created successfully at: ${file}`,
        before,
        after: content,
      };
    }
    case "edit": {
      let lines = state.get(file);
      if (!lines) {
        lines = Array.from({ length: 20 + Math.floor(rng() * 60) }, () => text.codeLine(rng)); // an existing file the agent had not seen
        state.set(file, lines);
        if (!committed.has(file)) committed.set(file, lines.slice());
      }
      const before = lines.join("\n") + "\n";
      const at = Math.floor(rng() * lines.length);
      const n = Math.min(lines.length - at, 1 + Math.floor(rng() * 4));
      const oldLines = lines.slice(at, at + n);
      const newLines = [
        ...oldLines.slice(0, 1),
        ...Array.from({ length: 1 + Math.floor(lognormal(rng, 3, 0.9)) }, () => text.codeLine(rng)),
      ];
      const failed = rng() < 0.05;
      const old = oldLines.join("\n") + "\n";
      const neu = newLines.join("\n") + "\n";
      if (!failed) {
        lines.splice(at, n, ...newLines);
        added.set(file, [...(added.get(file) ?? []), ...newLines.slice(1)]);
      }
      const result = failed
        ? "<tool_use_error>String to replace not found in file.</tool_use_error>"
        : `The file ${file} has been updated.`;
      if (agent === "Codex") {
        const patch = `*** Begin Patch\n*** Update File: ${file}\n@@\n${oldLines.map((l) => "-" + l).join("\n")}\n${newLines.map((l) => "+" + l).join("\n")}\n*** End Patch`;
        return {
          name: "apply_patch",
          input: { input: patch },
          file,
          result: failed ? "error: patch does not apply" : "Success.",
          before,
          after: lines.join("\n") + "\n",
          edit: { old, neu },
        };
      }
      const name =
        agent === "Gemini CLI" ? "replace" : agent === "OpenCode" ? "edit" : rng() < 0.05 ? "MultiEdit" : "Edit";
      const input =
        name === "MultiEdit"
          ? { file_path: file, edits: [{ old_string: old, new_string: neu }] }
          : agent === "OpenCode"
            ? { filePath: file, oldString: old, newString: neu }
            : { file_path: file, old_string: old, new_string: neu };
      return {
        name,
        input,
        file,
        result,
        before: failed ? undefined : before,
        after: failed ? undefined : lines.join("\n") + "\n",
        edit: failed ? undefined : { old, neu },
      };
    }
    case "bash:file":
    case "bash:build":
    case "bash:net":
    case "bash":
    case "git/gh": {
      const command = pick(rng, COMMANDS[category]);
      const bashCategory =
        category === "git/gh"
          ? "git"
          : category === "bash:build"
            ? "test-build"
            : category === "bash:file"
              ? "file ops"
              : "other";
      return {
        name: shellName,
        input: { command, description: "run it" },
        command,
        bashCategory,
        result: resultText(category === "bash:build" ? 2500 : 500),
      };
    }
    case "web":
      return {
        name: pick(rng, ["WebFetch", "WebSearch"]),
        input: { url: "https://docs.example.com/api", prompt: "summarise" },
        result: resultText(3000),
        research: true,
      };
    case "agent":
      return {
        name: "Task",
        input: { description: "explore", prompt: text.prose(rng, 300), subagent_type: "Explore" },
        result: resultText(2500),
      };
    case "mcp":
      return {
        name: pick(rng, ["mcp__github__get_issue", "mcp__linear__list_issues", "mcp__playwright__browser_snapshot"]),
        input: { id: 42 },
        result: resultText(1500),
      };
    case "other":
      return { name: pick(rng, OTHER_TOOLS), input: { path: "." }, result: resultText(300) };
    default:
      return { name: category, input: { todos: [{ content: "step", status: "pending" }] }, result: resultText(200) };
  }
}

/**
 * A commit of the slice: each file the agent touched goes from its content
 * at the previous commit (or its first pre-image) to the agent's content
 * with 30 % of the lines it added in the slice dropped or replaced by a
 * person's, plus a few human lines; the patch is a real unified diff
 * (`diff`), so it applies to the pre-images. Sometimes a human-only file.
 */
function makeCommit(
  rng: Rng,
  text: TextSource,
  sha: string,
  pk: string,
  date: number,
  added: Map<string, string[]>,
  state: Map<string, string[]>,
  committed: Map<string, string[]>,
  root: string,
): GenCommit {
  const parts: string[] = [];
  let additions = 0;
  let deletions = 0;
  let agentKept = 0;
  const emit = (path: string, before: string[], after: string[]) => {
    const oldText = before.length ? before.join("\n") + "\n" : "";
    const newText = after.length ? after.join("\n") + "\n" : "";
    const diff = structuredPatch(`a/${path}`, `b/${path}`, oldText, newText, "", "", { context: 3 });
    if (diff.hunks.length === 0) return;
    const header =
      before.length === 0
        ? `diff --git a/${path} b/${path}\nnew file mode 100644\nindex 0000000..${sha.slice(0, 7)}\n--- /dev/null\n+++ b/${path}`
        : `diff --git a/${path} b/${path}\nindex ${sha.slice(7, 14)}..${sha.slice(14, 21)} 100644\n--- a/${path}\n+++ b/${path}`;
    const body = diff.hunks
      .map((h) => `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@\n${h.lines.join("\n")}`)
      .join("\n");
    parts.push(`${header}\n${body}\n`);
    for (const h of diff.hunks)
      for (const l of h.lines) {
        if (l.startsWith("+")) additions++;
        else if (l.startsWith("-")) deletions++;
      }
  };
  for (const [abs, lines] of added) {
    const path = abs.slice(root.length + 1);
    const agentAdded = new Set(lines);
    const after: string[] = [];
    for (const l of state.get(abs) ?? []) {
      if (!agentAdded.has(l) || rng() < 0.7) {
        after.push(l);
        if (agentAdded.has(l)) agentKept++;
      } else if (rng() < 0.5) after.push(text.codeLine(rng));
    }
    for (let h = Math.floor(lognormal(rng, 1, 1)); h > 0; h--)
      after.splice(Math.floor(rng() * (after.length + 1)), 0, text.codeLine(rng));
    emit(path, committed.get(abs) ?? [], after);
    committed.set(abs, after);
  }
  if (rng() < 0.3 || parts.length === 0)
    emit(
      `docs/notes-${sha.slice(0, 4)}.md`,
      [],
      Array.from({ length: 1 + Math.floor(rng() * 8) }, () => text.prose(rng, 60)),
    );
  return { sha, checkpoint_pk: pk, date, patch: parts.join(""), additions, deletions, agentKept };
}

/** Claude Code 2.x records of one call (assistant tool_use, user tool_result with toolUseResult), for the raw transcripts. */
function claudeRecords(sessionId: string, cwd: string, model: string, id: string, call: Call, t: number): string[] {
  const ts = new Date(t).toISOString();
  const env = {
    sessionId,
    cwd,
    version: "2.1.30",
    gitBranch: "main",
    timestamp: ts,
    isSidechain: false,
    userType: "external",
  };
  const assistant = {
    ...env,
    type: "assistant",
    requestId: `req_${id}`,
    message: {
      id: `msg_${id}`,
      model,
      role: "assistant",
      content: [{ type: "tool_use", id, name: call.name, input: call.input }],
      usage: { input_tokens: 5, output_tokens: 100, cache_creation_input_tokens: 500, cache_read_input_tokens: 20000 },
    },
  };
  const failed = call.result.startsWith("<tool_use_error>");
  let toolUseResult: unknown = call.result;
  if (!failed && call.name === "Write")
    toolUseResult = {
      type: call.before == null ? "create" : "update",
      filePath: call.file,
      content: call.after,
      structuredPatch: [],
      originalFile: call.before ?? null,
    };
  else if (!failed && call.edit)
    toolUseResult = {
      filePath: call.file,
      oldString: call.edit.old,
      newString: call.edit.neu,
      originalFile: call.before,
      structuredPatch: [],
      userModified: false,
      replaceAll: false,
    };
  const user = {
    ...env,
    type: "user",
    message: {
      role: "user",
      content: [
        {
          type: "tool_result",
          tool_use_id: id,
          content: call.result.slice(0, 2000),
          ...(failed ? { is_error: true } : {}),
        },
      ],
    },
    toolUseResult,
  };
  return [JSON.stringify(assistant), JSON.stringify(user)];
}
