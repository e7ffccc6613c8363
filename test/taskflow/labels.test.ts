import assert from "node:assert/strict";
import { test } from "node:test";
import { DiagnosticSink } from "../../src/model";
import {
  applyImportedLabels,
  classifyByRules,
  fromSweChatIntent,
  labelledSessionsFromImported,
  normaliseLabel,
  readImportedLabels,
  readLabelledCorpus,
  SWE_CHAT_INTENT_MAP,
  TASK_LABELS,
  toLabelledCorpus,
  INSTANTIABLE_LABELS,
  NON_INSTANTIABLE_LABELS,
} from "../../src/taskflow";

test("the taxonomy: 16 labels, 3 not instantiable, loose spellings normalised", () => {
  assert.equal(TASK_LABELS.length, 16);
  assert.deepEqual([...NON_INSTANTIABLE_LABELS].sort(), ["greeting", "meta-question", "other"]);
  assert.equal(INSTANTIABLE_LABELS.length, 13);
  assert.equal(normaliseLabel("BUG_FIX"), "bug-fix");
  assert.equal(normaliseLabel(" New Feature "), "new-feature");
  assert.equal(normaliseLabel("metaquestion"), "meta-question");
  assert.equal(normaliseLabel("feature"), null);
});

test("imported labels from CSV (quoted fields, CRLF), keyed by session id and message index", () => {
  const csv =
    'session_id,message_index,label\r\ns1,1,explain\r\ns1,0,"bug-fix"\r\n"s,2",0,Task\r\ns3,0,new feature\r\n';
  const sink = new DiagnosticSink("test");
  const got = readImportedLabels(csv, "l.csv", sink);
  assert.deepEqual([...got.get("s1")!.entries()].sort(), [
    [0, "bug-fix"],
    [1, "explain"],
  ]);
  assert.equal(got.get("s3")!.get(0), "new-feature");
  // "Task" is no label: skipped with a diagnostic, the session "s,2" has nothing.
  assert.equal(got.has("s,2"), false);
  assert.deepEqual(
    sink.rows.map((d) => d.code),
    ["taskflow-label-unknown"],
  );
  assert.match(sink.rows[0].message, /"Task"/);
});

test("imported labels from JSON rows, a JSON map and JSONL; SWE-chat prompt_intent through the approximate table", () => {
  const sink = new DiagnosticSink("test");
  const rows = readImportedLabels(
    JSON.stringify([
      { session_id: "a", turn: 0, prompt_intent: "create new code" },
      { session_id: "a", turn: 4, prompt_intent: "git" },
      { session_id: "a", turn: 6, prompt_intent: "debug" },
    ]),
    "r.json",
    sink,
  );
  // prompt_intent column: mapped (create new code → new-feature, git → execute, and SWE-chat's debug — which spans fixing —
  // → bug-fix, not the taxonomy's same-named label), with an info row saying it is approximate.
  assert.deepEqual(
    [...rows.get("a")!.entries()],
    [
      [0, "new-feature"],
      [4, "execute"],
      [6, "bug-fix"],
    ],
  );
  assert.equal(sink.rows.at(-1)!.code, "taskflow-label-mapped-approximate");
  const map = readImportedLabels(
    JSON.stringify({ x: ["tests", "execute"], y: { 1: "debug", 0: "planning" } }),
    "m.json",
    sink,
  );
  assert.deepEqual(labelledSessionsFromImported(map, sink), [
    { session_id: "x", labels: ["tests", "execute"] },
    { session_id: "y", labels: ["planning", "debug"] },
  ]);
  const jsonl = readImportedLabels(
    '{"session_id":"p","labels":["refactor"]}\n{"session_id":"q","message_index":0,"label":"question"}\n',
    "l.jsonl",
    sink,
  );
  assert.equal(jsonl.get("p")!.get(0), "refactor");
  assert.equal(jsonl.get("q")!.get(0), "question");
  // Every SWE-chat intent maps to a taxonomy label; an unknown one does not.
  for (const m of SWE_CHAT_INTENT_MAP) assert.ok((TASK_LABELS as readonly string[]).includes(m.label));
  assert.equal(SWE_CHAT_INTENT_MAP.length, 8);
  assert.equal(fromSweChatIntent("Understand"), "explain");
  assert.equal(fromSweChatIntent("vibes"), null);
});

test("imported labels applied to an input's sessions: a session with an unlabelled message is left out, with a diagnostic", () => {
  const sink = new DiagnosticSink("test");
  const labels = readImportedLabels(
    "session_id,message_index,label\na,0,bug-fix\na,1,explain\nb,0,tests\nb,5,tests\nz,0,other\n",
    "l.csv",
    sink,
  );
  const sessions = [
    { session_id: "a", format: "claude-code", ref: "a.jsonl", messages: ["m0", "m1"] },
    { session_id: "b", format: "claude-code", ref: "b.jsonl", messages: ["m0", "m1"] },
  ];
  const out = applyImportedLabels(sessions, labels, sink);
  assert.deepEqual(out, [{ session_id: "a", labels: ["bug-fix", "explain"] }]);
  // b: message 1 has no label (left out); b's label at index 5 points past its 2 messages is not counted as it was left out;
  // z is labelled but not in the input.
  assert.deepEqual(
    sink.rows.map((d) => d.code),
    ["taskflow-label-missing", "taskflow-label-unused"],
  );
});

test("the labelled corpus JSONL: written one session per line, read back; a wrong label leaves its session out", () => {
  const sessions = [
    { session_id: "a", labels: ["bug-fix", "explain"] as const },
    { session_id: "b", labels: [] as const },
  ];
  const text = toLabelledCorpus(sessions.map((x) => ({ session_id: x.session_id, labels: [...x.labels] })));
  assert.equal(text, '{"session_id":"a","labels":["bug-fix","explain"]}\n{"session_id":"b","labels":[]}\n');
  const sink = new DiagnosticSink("test");
  const back = readLabelledCorpus(
    text + '{"session_id":"c","labels":["bug-fix","vibes"]}\n{"labels":[]}\nnot json\n',
    "c.jsonl",
    sink,
  );
  assert.deepEqual(
    back.map((x) => x.session_id),
    ["a", "b"],
  );
  assert.deepEqual(sink.rows.map((d) => d.code).sort(), [
    "jsonl-invalid-line",
    "taskflow-corpus-line-bad",
    "taskflow-label-unknown",
  ]);
});

test("the rule classifier names the rule that fired", () => {
  // Messages written for this test (not from any corpus); each line: text, label, rule.
  const cases: [string, string, string][] = [
    ["hello!", "greeting", "greeting"],
    ["???", "greeting", "empty"],
    ["thanks, that works", "other", "thanks"],
    ["yes, go ahead", "other", "acknowledgement"],
    ["commit and push", "execute", "execute-verb"],
    ["ok, please run the migrations", "execute", "execute-verb"],
    ["Traceback (most recent call last):\n  File \"app.py\", line 3\nKeyError: 'x'", "bug-fix", "error-output"],
    ["the login page is broken since yesterday", "bug-fix", "fix"],
    ["can you check why the nightly job fails", "debug", "debug"],
    ["please review my last commit for style issues", "code-review", "review"],
    ["write unit tests for the parser", "tests", "tests"],
    ["update the README with the new flags", "generate-docs", "docs"],
    ["migrate this module from CommonJS to ESM", "transformation", "transform"],
    ["extract the retry logic into a helper", "refactor", "refactor"],
    ["plot the weekly active users from the csv", "data-analysis", "data"],
    ["what is the difference between a mutex and a semaphore", "question", "question-general"],
    ["how does the cache in this repo get invalidated?", "explain", "question-project"],
    ["add a dark mode toggle to the settings page", "new-feature", "new-feature"],
    ["is this within your usage limit?", "meta-question", "meta"],
    ["Implement the following plan:\n\n# Plan: Fix the flaky upload test\n\n## Context\n…", "bug-fix", "plan:fix"],
    ["banana", "other", "default"],
  ];
  for (const [text, label, rule] of cases)
    assert.deepEqual(classifyByRules(text), { label, rule }, JSON.stringify(text));
});
