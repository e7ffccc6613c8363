import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import { patchMatch } from "../../src/attribution/patch-match";
import { detectExportFormat } from "../../src/ingest/detect-export";
import {
  commandFromAction,
  parseSweAgentTrajectory,
  shellWords,
  splitUnifiedDiff,
  type SweAgentTrajectory,
  windowsOf,
} from "../../src/ingest/swe-agent";
import { DiagnosticSink, sessionSchema } from "../../src/model";
import { corpusPath } from "../helpers/corpus";

const CORPUS = corpusPath("swe-agent") + "/";
const V0 = "pydicom__pydicom-1458.v0-default.traj";
const FC = "marshmallow-code__marshmallow-1867.function_calling_replace.traj";

function parseReal(name: string): { t: SweAgentTrajectory; sink: DiagnosticSink } {
  const sink = new DiagnosticSink("swe-agent", name);
  const t = parseSweAgentTrajectory({ text: readFileSync(CORPUS + name), file: name }, sink);
  assert.ok(t, `${name} parses`);
  const valid = sessionSchema.safeParse(t.session);
  assert.ok(valid.success, `${name} conforms to the Session schema: ${valid.success ? "" : valid.error.message}`);
  return { t, sink };
}
const codes = (sink: DiagnosticSink) => sink.rows.map((r) => r.code);

// Every expected number below was counted with a python one-off over the
// file (json.load; trajectory[i].action's first word; observations starting
// "Your proposed edit has introduced new syntax error"; info.model_stats;
// `+`/`-` lines of info.submission), not with this parser.

describe("SWE-agent v0 trajectory (pydicom__pydicom-1458, windowed_edit_linting)", () => {
  const { t, sink } = parseReal(V0);
  const s = t.session;

  test("identity: instance id and repo from the SWE-bench id, v0 format, no model named in the file", () => {
    assert.equal(t.instance_id, "pydicom__pydicom-1458");
    assert.equal(s.session_id, "pydicom__pydicom-1458");
    assert.equal(t.repo, "pydicom/pydicom");
    assert.equal(t.format, "v0");
    assert.equal(t.model, null);
    assert.ok(codes(sink).includes("swe-agent-model-unknown"));
    assert.equal(s.source, "swe-agent");
    assert.deepEqual(s.cwds, ["/pydicom__pydicom"]);
    assert.equal(t.exit_status, "submitted");
  });

  test("one prompt: the problem statement cut from the first non-demo user message (history[1] is the demo)", () => {
    assert.equal(s.turns.length, 1);
    assert.ok(
      s.turns[0].text.startsWith("Pixel Representation attribute should be optional"),
      s.turns[0].text.slice(0, 60),
    );
    assert.ok(!s.turns[0].text.includes("INSTRUCTIONS:"));
  });

  test("12 steps → 12 tool calls: create, edit, python, find_file, open, edit ×4, python, rm, submit", () => {
    assert.equal(s.tool_calls.length, 12);
    assert.deepEqual(
      s.tool_calls.map((c) => c.name),
      ["create", "edit", "bash", "find_file", "open", "edit", "edit", "edit", "edit", "bash", "bash", "submit"],
    );
  });

  test("the 3 lint-refused edits (steps 6–8) are failures and carry no file edit; the 4th (step 9) applies", () => {
    const edits = s.tool_calls.filter((c) => c.name === "edit");
    assert.equal(edits.length, 5); // steps 2, 6, 7, 8, 9
    assert.deepEqual(
      edits.map((c) => c.success),
      [true, false, false, false, true],
    );
    for (const c of edits.filter((e) => e.success === false)) {
      assert.equal(c.file_edits.length, 0);
      assert.ok(c.error?.startsWith("Your proposed edit has introduced new syntax error"), c.error ?? "");
    }
  });

  test("the line-range edit 287:296 gets its old lines from the window `open … 293` printed (lines 273–372)", () => {
    const step9 = s.tool_calls[8];
    assert.equal(step9.id, "step-9");
    const e = step9.file_edits[0];
    assert.equal(e.path, "/pydicom__pydicom/pydicom/pixel_data_handlers/numpy_handler.py");
    const old = e.edits![0].old_string.split("\n");
    // 10 old lines (287..296) + the empty string after the final newline.
    assert.equal(old.length, 11);
    assert.equal(old[0], "    required_elements = [");
    assert.equal(old[1], "        'BitsAllocated', 'Rows', 'Columns', 'PixelRepresentation',"); // a `-` line of the submission
    assert.equal(old[9], "        )");
  });

  test("the created scratch file is known whole: create = one empty line, `edit 1:1` replaces it with 18 lines", () => {
    const [create, edit] = [s.tool_calls[0], s.tool_calls[1]];
    assert.deepEqual([create.file_edits[0].pre_image, create.file_edits[0].post_image], ["", "\n"]);
    assert.equal(edit.file_edits[0].pre_image, "\n");
    assert.equal(edit.file_edits[0].post_image!.split("\n").length - 1, 18); // observation: "(18 lines total)"
  });

  test("model_stats: cost 1.26719, 122612 tokens sent, 1369 received, 12 API calls (one aggregate usage record)", () => {
    assert.deepEqual(t.model_stats, {
      instance_cost: 1.26719,
      tokens_sent: 122612,
      tokens_received: 1369,
      api_calls: 12,
    });
    assert.equal(s.api_calls.length, 1);
    assert.equal(s.api_calls[0].usage.input_tokens, 122612);
    assert.equal(s.api_calls[0].usage.output_tokens, 1369);
  });

  test("submission: one file, 3 added and 2 removed lines, LF already", () => {
    assert.equal(t.submission_had_crlf, false);
    const files = splitUnifiedDiff(t.submission!);
    assert.deepEqual(
      files.map((f) => [f.path, f.additions]),
      [["pydicom/pixel_data_handlers/numpy_handler.py", 3]],
    );
  });

  test("patch-match against the submission: produced 21, final 21, survived 3 of 3 committed", () => {
    // reproduce_bug.py: create → 1 empty agent line; `edit 1:1` → 18 lines, Myers keeps the empty one: +17.
    // numpy_handler.py: old 10 lines → new 11: 2 deleted, 3 inserted, and those 3 are exactly the submission's `+` lines.
    // produced = 1 + 17 + 3 = 21; final = 18 + 3 = 21 (the `rm` of the scratch file is a shell command: not replayed).
    const u = patchMatch(s, splitUnifiedDiff(t.submission!), new DiagnosticSink("t"));
    assert.deepEqual(
      [u.agent_lines_produced, u.agent_lines_final, u.agent_lines_survived, u.human_lines, u.total_committed_lines],
      [21, 21, 3, 0, 3],
    );
  });
});

describe("SWE-agent function-calling trajectory (marshmallow-code__marshmallow-1867, edit_replace bundle)", () => {
  const { t, sink } = parseReal(FC);
  const s = t.session;

  test("identity from replay_config: problem_statement.id, model gpt-4o, function-calling format", () => {
    assert.equal(t.instance_id, "marshmallow-code__marshmallow-1867");
    assert.equal(t.repo, "marshmallow-code/marshmallow");
    assert.equal(t.format, "function-calling");
    assert.equal(t.model, "gpt-4o");
    assert.equal(s.api_calls[0].model, "gpt-4o");
    assert.ok(s.turns[0].text.startsWith("TimeDelta serialization precision"));
  });

  test("11 steps: commands from the function-call arguments (history ids repeat, so ids are step numbers)", () => {
    assert.deepEqual(
      s.tool_calls.map((c) => c.name),
      ["create", "insert", "bash", "bash", "find_file", "open", "edit", "edit", "bash", "bash", "submit"],
    );
    assert.equal(new Set(s.tool_calls.map((c) => c.id)).size, 11);
    assert.deepEqual(s.tool_calls[4].input, { file_name: "fields.py", dir: "src" });
  });

  test("1 lint-refused edit (step 7, E999 IndentationError), then the successful one", () => {
    assert.deepEqual([s.tool_calls[6].success, s.tool_calls[7].success], [false, true]);
    assert.equal(s.tool_calls[6].file_edits.length, 0);
  });

  test("`insert` appends 9 lines to the 1-line file `create` made: 10 lines, as the observation says", () => {
    const e = s.tool_calls[1].file_edits[0];
    assert.equal(e.pre_image, "\n");
    assert.equal(e.post_image!.split("\n").length - 1, 10);
  });

  test("the substring edit is widened to its whole line from the window (so the indentation is kept)", () => {
    const e = s.tool_calls[7].file_edits[0].edits![0];
    assert.equal(e.old_string, "        return int(value.total_seconds() / base_unit.total_seconds())\n");
    assert.equal(
      e.new_string,
      "        # round to nearest int\n        return int(round(value.total_seconds() / base_unit.total_seconds()))\n",
    );
  });

  test("model_stats of a replayed demonstration: 0 cost, 0 tokens, 11 API calls, said in a diagnostic", () => {
    assert.deepEqual(t.model_stats, { instance_cost: 0, tokens_sent: 0, tokens_received: 0, api_calls: 11 });
    assert.ok(codes(sink).includes("swe-agent-zero-cost"));
  });

  test("CRLF submission (15 CRLF line ends): normalised, 2 added lines, 1 removed", () => {
    assert.equal(t.submission_had_crlf, true);
    assert.ok(codes(sink).includes("swe-agent-submission-crlf"));
    assert.ok(!t.submission!.includes("\r"));
    const files = splitUnifiedDiff(t.submission!);
    assert.deepEqual(
      files.map((f) => [f.path, f.additions]),
      [["src/marshmallow/fields.py", 2]],
    );
    const plus = files[0].patch!.split("\n").filter((l) => l.startsWith("+"));
    assert.deepEqual(plus, [
      "+        # round to nearest int",
      "+        return int(round(value.total_seconds() / base_unit.total_seconds()))",
    ]);
  });

  test("patch-match: produced 12, final 12, survived 2 of 2", () => {
    // reproduce.py: create 1 + insert 9 (the empty line 1 stays) = 10; fields.py: 1 line → 2 new lines = 2.
    const u = patchMatch(s, splitUnifiedDiff(t.submission!), new DiagnosticSink("t"));
    assert.deepEqual(
      [u.agent_lines_produced, u.agent_lines_final, u.agent_lines_survived, u.human_lines, u.total_committed_lines],
      [12, 12, 2, 0, 2],
    );
  });
});

describe("SWE-agent 1.x str_replace_editor (hand-made trajectory)", () => {
  const obs = (path: string, lines: string[], snippet: boolean) =>
    `Here's the result of running \`cat -n\` on ${snippet ? "a snippet of " : ""}${path}:\n` +
    lines.map((l, i) => `${String(i + 1).padStart(6)}\t${l}`).join("\n") +
    "\n";
  const P = "/testbed/pkg/a.py";
  const traj = {
    environment: "main",
    trajectory: [
      {
        action: `str_replace_editor create ${P} --file_text 'x = 1\ny = 2\n'`,
        observation: `File created successfully at: ${P}`,
        state: { working_dir: "/testbed" },
      },
      {
        action: `str_replace_editor str_replace ${P} --old_str 'y = 2' --new_str 'y = 3\nz = 4'`,
        observation: `The file ${P} has been edited. ` + obs(P, ["x = 1", "y = 3", "z = 4"], true),
        state: {},
      },
      {
        action: `str_replace_editor str_replace ${P} --old_str nope --new_str q`,
        observation: `No replacement was performed, old_str \`nope\` did not appear verbatim in ${P}.`,
        state: {},
      },
      {
        action: `str_replace_editor insert ${P} --insert_line 1 --new_str 'w = 0'`,
        observation: `The file ${P} has been edited. ` + obs(P, ["x = 1", "w = 0", "y = 3", "z = 4"], true),
        state: {},
      },
      {
        action: `str_replace_editor undo_edit ${P}`,
        observation: `Last edit to ${P} undone successfully. ` + obs(P, ["x = 1", "y = 3", "z = 4", ""], false),
        state: {},
      },
      { action: "submit", observation: "", state: {} },
    ],
    history: [{ role: "user", content: "ISSUE:\nMake z.\n\nINSTRUCTIONS:\n…" }],
    info: {
      exit_status: "submitted",
      submission:
        "diff --git a/pkg/a.py b/pkg/a.py\nnew file mode 100644\n--- /dev/null\n+++ b/pkg/a.py\n@@ -0,0 +1,3 @@\n+x = 1\n+y = 3\n+z = 4\n",
      model_stats: { instance_cost: 0.5, tokens_sent: 100, tokens_received: 10, api_calls: 6 },
    },
  };
  const sink = new DiagnosticSink("swe-agent");
  const t = parseSweAgentTrajectory({ text: JSON.stringify(traj), file: "/runs/demo__repo-7.traj" }, sink)!;

  test("id from the file name, prompt from ISSUE:/INSTRUCTIONS:, v0 (no function calls)", () => {
    assert.equal(t.instance_id, "demo__repo-7");
    assert.equal(t.repo, "demo/repo");
    assert.equal(t.session.turns[0].text, "Make z.");
  });

  test("create/str_replace/insert/undo with the file known whole: exact pre- and post-images; the refused call is a failure", () => {
    const c = t.session.tool_calls;
    assert.deepEqual(
      c.map((x) => x.success),
      [true, true, false, true, true, true],
    );
    assert.equal(c[0].file_edits[0].post_image, "x = 1\ny = 2\n");
    assert.deepEqual(
      [c[1].file_edits[0].pre_image, c[1].file_edits[0].post_image],
      ["x = 1\ny = 2\n", "x = 1\ny = 3\nz = 4\n"],
    );
    assert.equal(c[2].file_edits.length, 0);
    assert.equal(c[3].file_edits[0].post_image, "x = 1\nw = 0\ny = 3\nz = 4\n");
    // undo_edit restores the text before the last edit (the tool's undo stack), not the one before the first.
    assert.deepEqual(
      [c[4].file_edits[0].pre_image, c[4].file_edits[0].post_image],
      ["x = 1\nw = 0\ny = 3\nz = 4\n", "x = 1\ny = 3\nz = 4\n"],
    );
  });

  test("patch-match: produced 5 (2 + 2 + 1), final 3, all 3 committed lines the agent's", () => {
    // create: x=1, y=2 (+2); str_replace y=2 → y=3, z=4 (+2); insert w=0 (+1); undo removes w=0 (+0).
    const u = patchMatch(t.session, splitUnifiedDiff(t.submission!), new DiagnosticSink("t"));
    assert.deepEqual(
      [u.agent_lines_produced, u.agent_lines_final, u.agent_lines_survived, u.total_committed_lines],
      [5, 3, 3, 3],
    );
  });
});

describe("action text and windows", () => {
  test("shell words: single quotes literal, double quotes with escapes, newlines inside quotes kept", () => {
    assert.deepEqual(shellWords(`edit 'a "b"\nc' "d \\"e\\" \\$f" g\\ h`), ["edit", 'a "b"\nc', 'd "e" $f', "g h"]);
    assert.equal(shellWords("edit 'unbalanced"), null);
  });

  test("v0 range edit with end_of_edit, and an empty replacement", () => {
    assert.deepEqual(commandFromAction("edit 3:5\n  a\n  b\nend_of_edit\n"), {
      kind: "edit-range",
      name: "edit",
      start: 3,
      end: 5,
      text: "  a\n  b",
    });
    assert.deepEqual(commandFromAction("edit 3:3\nend_of_edit"), {
      kind: "edit-range",
      name: "edit",
      start: 3,
      end: 3,
      text: "",
    });
    assert.deepEqual(commandFromAction("python x.py"), { kind: "shell", name: "bash", command: "python x.py" });
  });

  test("windowed and cat -n windows, CRLF tolerated; a partial window is not the whole file", () => {
    const [w] = windowsOf("[File: /r/a.py (3 lines total)]\r\n1:a\r\n2:\r\n3:c\r\n");
    assert.deepEqual([w.path, w.total, w.whole, [...w.lines.values()]], ["/r/a.py", 3, true, ["a", "", "c"]]);
    const [p] = windowsOf("[File: /r/a.py (300 lines total)]\n(10 more lines above)\n11:x\n(288 more lines below)\n");
    assert.deepEqual([p.whole, p.lines.get(11)], [false, "x"]);
  });
});

describe("bad input", () => {
  const bytes = readFileSync(CORPUS + V0);
  const cut = bytes.subarray(0, Math.floor(bytes.length / 2));

  test("a truncated .traj is still recognised by content and becomes a swe-agent-truncated error, no session", () => {
    assert.equal(detectExportFormat(cut), "swe-agent");
    const sink = new DiagnosticSink("swe-agent");
    assert.equal(parseSweAgentTrajectory({ text: cut, file: "cut.traj" }, sink), null);
    assert.deepEqual(codes(sink), ["swe-agent-truncated"]);
    assert.equal(sink.rows[0].severity, "error");
  });

  test("a v0 file renamed: the instance id is the file name, the repo comes from the working directory /pydicom__pydicom", () => {
    const t = parseSweAgentTrajectory({ text: bytes, file: "/x/a.traj" }, new DiagnosticSink("swe-agent"))!;
    assert.deepEqual([t.instance_id, t.repo], ["a", "pydicom/pydicom"]);
  });

  test("a JSON document without a trajectory array is refused with a diagnostic", () => {
    const sink = new DiagnosticSink("swe-agent");
    assert.equal(parseSweAgentTrajectory({ text: '{"info": {}}', file: "x.traj" }, sink), null);
    assert.deepEqual(codes(sink), ["swe-agent-not-a-trajectory"]);
  });

  test("an action that cannot be read (unbalanced quote) is kept as an unknown tool, with a warning", () => {
    const sink = new DiagnosticSink("swe-agent");
    const t = parseSweAgentTrajectory(
      {
        text: JSON.stringify({ trajectory: [{ action: "edit 'oops", observation: "" }], info: {} }),
        file: "a__b-1.traj",
      },
      sink,
    )!;
    assert.equal(t.session.tool_calls[0].name, "edit");
    assert.ok(codes(sink).includes("swe-agent-action-unparsed"));
    assert.ok(codes(sink).includes("swe-agent-no-submission"));
  });
});
