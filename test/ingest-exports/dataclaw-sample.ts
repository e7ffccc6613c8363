/**
 * DataClaw publishes its exports on a model hub, not in git, so no real file
 * is in the corpus. This sample follows the exporter's code
 * (`peteromallet/dataclaw`: `parsers/common.py` make_session_result,
 * `parsers/claude.py` tool_uses {tool, input, output, status},
 * `parsers/codex.py` apply_patch input {patch}, `_cli/exporting.py` adding
 * project/source) and formats.md §8.
 */
export const CLAUDE_SESSION = {
  session_id: "c1",
  model: "claude-opus-4-6",
  git_branch: "main",
  start_time: "2026-03-01T10:00:00+00:00",
  end_time: "2026-03-01T10:05:00+00:00",
  messages: [
    { role: "user", content: "Write app.py", timestamp: "2026-03-01T10:00:00+00:00" },
    {
      role: "assistant",
      content: "Writing it.",
      thinking: "…",
      tool_uses: [
        { tool: "Read", input: { file_path: "src/app.py" }, output: { text: "not found" }, status: "error" },
        {
          tool: "Write",
          input: { file_path: "src/app.py", content: "a\nb\nc\n" },
          output: { text: "File created" },
          status: "success",
        },
      ],
      timestamp: "2026-03-01T10:01:00+00:00",
    },
    { role: "user", content: "[Request interrupted by user for tool use]", timestamp: "2026-03-01T10:02:00+00:00" },
    { role: "user", content: "Split b", timestamp: "2026-03-01T10:03:00+00:00" },
    {
      role: "assistant",
      tool_uses: [
        {
          tool: "Edit",
          input: { file_path: "src/app.py", old_string: "b\n", new_string: "B\nB2\n" },
          status: "success",
        },
        {
          tool: "Edit",
          input: { file_path: "src/app.py", old_string: "zzz", new_string: "never" },
          output: { text: "String to replace not found" },
          status: "error",
        },
      ],
      timestamp: "2026-03-01T10:04:00+00:00",
    },
  ],
  stats: { user_messages: 3, assistant_messages: 2, tool_uses: 4, input_tokens: 50000, output_tokens: 3000 },
  project: "my-project",
  source: "claude",
};

export const CODEX_SESSION = {
  session_id: "x2",
  model: "gpt-5.3-codex",
  git_branch: null,
  start_time: "2026-03-02T09:00:00Z",
  end_time: "2026-03-02T09:10:00Z",
  messages: [
    { role: "user", content: "Add x.go", timestamp: "2026-03-02T09:00:00Z" },
    {
      role: "assistant",
      tool_uses: [
        { tool: "exec_command", input: { cmd: "ls" }, output: { output: "a" }, status: "success" },
        {
          tool: "apply_patch",
          input: { patch: "*** Begin Patch\n*** Add File: lib/x.go\n+package x\n+\n+func X() {}\n*** End Patch" },
          status: "success",
        },
      ],
      timestamp: "2026-03-02T09:05:00Z",
    },
  ],
  stats: { user_messages: 1, assistant_messages: 1, tool_uses: 2, input_tokens: 9000, output_tokens: 400 },
  project: "codex:lib",
  source: "codex",
};

/** An early (0.2/0.3) export: no source, inputs summarised to a string, no results. */
export const EARLY_SESSION = {
  session_id: "e3",
  project: "old",
  model: "claude-sonnet-4",
  messages: [
    { role: "user", content: "Fix auth" },
    {
      role: "assistant",
      content: "ok",
      tool_uses: [
        { tool: "Edit", input: "src/auth.py" },
        { tool: "Bash", input: "pytest" },
      ],
    },
  ],
  stats: { input_tokens: 10, output_tokens: 5 },
};
