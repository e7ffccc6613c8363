import type { ReportRows } from "../../src/report";
import { chartFixture } from "../charts/fixture";

/** Markup that must stay text: each would run `window.__pwned++` (or add an element) if it reached the page as HTML. */
export const PAYLOADS = {
  script: "<script>window.__pwned=(window.__pwned||0)+1</script>",
  img: '<img src=x onerror="window.__pwned=(window.__pwned||0)+1">',
  close: "</script><script>window.__pwned=(window.__pwned||0)+1</script><!--",
  svg: "<svg onload=window.__pwned=1><b id=injected>x</b>",
};
/** A file name that reads "invoice_gpj.exe" backwards after the override: shown as "invoice_exe.jpg" if the U+202E reaches the page. */
export const BIDI_SPOOF = "invoice_\u202Egpj.exe";
export const SECRET = "sk-ant-api03-Q9wErTy8UiOp7AsDfGh6JkLzXcV5bNm4QwE3rTy";

/**
 * The chart fixture with hostile text in every field a transcript controls:
 * model and repository names, branch, file names, tool names, a session id,
 * a diagnostic message and the prompts (plus a secret in a prompt and in a
 * branch name).
 */
export function hostileRows(): ReportRows {
  const rows = chartFixture();
  const evilModel = `claude-${PAYLOADS.script}${PAYLOADS.close}`;
  const evilId = `s9${PAYLOADS.img}`;
  for (const u of rows.units) if (u.session_id === "s1") u.model = evilModel;
  for (const s of rows.sessions)
    if (s.session_id === "s1") Object.assign(s, { model: evilModel, models: evilModel, branch: `feature/${SECRET}` });
  rows.units[8].repo = `acme/${PAYLOADS.close}`;
  rows.units.push({ ...rows.units[0], session_id: evilId, commit_sha: "b".repeat(40), model: PAYLOADS.svg });
  rows.sessions.push({
    ...rows.sessions[0],
    session_id: evilId,
    model: PAYLOADS.svg,
    models: PAYLOADS.svg,
    agent: PAYLOADS.img,
    branch: "main",
  });
  rows.tool_calls.push(
    {
      session_id: "s1",
      seq: 2,
      tool: `Edit${PAYLOADS.img}`,
      category: "edit",
      file: `src/${PAYLOADS.img}.ts`,
      success: true,
      lines_added: 3,
      lines_removed: 0,
      timestamp: "2026-01-01T09:03:00.000Z",
    },
    {
      session_id: evilId,
      seq: 0,
      tool: "Write",
      category: "write",
      file: `src/a${PAYLOADS.close}.ts`,
      success: true,
      lines_added: 10,
      lines_removed: 0,
      timestamp: "2026-01-01T09:04:00.000Z",
    },
  );
  rows.diagnostics.push({
    source: "claude-code",
    session_id: evilId,
    file: `${PAYLOADS.close}.jsonl`,
    record: 1,
    severity: "error",
    code: "claude-bad-line",
    message: `line 1: ${PAYLOADS.img}${PAYLOADS.script}`,
  });
  return {
    ...rows,
    prompts: [
      {
        session_id: "s1",
        index: 0,
        timestamp: "2026-01-01T09:00:00.000Z",
        text: `Please fix ${PAYLOADS.script} and ${PAYLOADS.img}\nMy key is ${SECRET}`,
      },
      { session_id: "s1", index: 1, timestamp: null, text: PAYLOADS.close },
      { session_id: "s1", index: 2, timestamp: null, text: `open ${BIDI_SPOOF}` },
      { session_id: evilId, index: 0, timestamp: null, text: PAYLOADS.svg },
    ],
    unit_files: [
      {
        session_id: "s1",
        commit_sha: rows.units[0].commit_sha,
        path: `src/${PAYLOADS.img}.ts`,
        agent_lines_produced: 10,
        agent_lines_final: 10,
        agent_lines_survived: 10,
        human_lines: 0,
        outside_lines: 0,
        total_committed_lines: 10,
      },
    ],
  };
}
