/** The transparent rules of src/signals: each pushback rule and each clarification rule fires on a message of its kind, and ordinary messages fire none. */
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  asksForClarification,
  CLARIFICATION_RULES,
  clarificationRule,
  classifyPushback,
  PUSHBACK_RULES,
} from "../../src/signals";

const PUSHBACK_EXAMPLES: [string, string][] = [
  ["never mind, I'll do it myself", "takeover"],
  ["I fixed it manually, thanks", "takeover"],
  ["Please revert that change", "rejection"],
  ["no", "rejection"],
  ["this is taking too long, just do it", "pacing"],
  ["It still doesn't work, same error", "failure"],
  ["Error: cannot find module './x'\n    at load (a.js:1)", "failure"],
  ["actually, let's use SQLite instead of Postgres", "requirement-change"],
  ["on second thought keep the old name", "requirement-change"],
  ["No, that's not what I asked for", "correction"],
  ["you forgot the tests in utils", "correction"],
  ["the header is missing from the export", "correction"],
];

test("every pushback rule fires on an example of its kind (the first rule that fires decides)", () => {
  for (const [text, rule] of PUSHBACK_EXAMPLES) assert.equal(classifyPushback(text).rule, rule, text);
  assert.deepEqual(
    new Set(PUSHBACK_EXAMPLES.map(([, r]) => r)),
    new Set(PUSHBACK_RULES.map((r) => r.id)),
    "each rule has an example",
  );
  // "I'll do it myself" wins over the "no" it also says: takeover is before correction.
  assert.equal(classifyPushback("No. I'll do it myself.").label, "takeover");
});

test("ordinary requests, questions and thanks are non_pushback", () => {
  for (const text of [
    "add a --verbose flag to the CLI",
    "how does the parser work?",
    "thanks, looks good",
    "commit and push",
    "now write the README",
  ]) {
    assert.deepEqual(classifyPushback(text), { label: "non_pushback", rule: "none" }, text);
  }
});

test("clarification: a request for missing input in the reply's last paragraph, or an asking tool; offers are not requests", () => {
  const examples: [string, string][] = [
    ["I looked at both.\n\nCould you clarify which config you mean?", "clarify"],
    ["Should I keep the old API or remove it?", "choose"],
    ["Before I proceed, is the database Postgres?", "missing-input"],
  ];
  for (const [reply, rule] of examples) assert.equal(clarificationRule(reply), rule, reply);
  assert.deepEqual(new Set(examples.map(([, r]) => r)), new Set(CLARIFICATION_RULES.map((r) => r.id)));
  // An offer, a question that is not in the last paragraph, and no question at all.
  assert.equal(clarificationRule("Done. Would you like me to commit?"), null);
  assert.equal(clarificationRule("Which file do you mean?\n\nI went with src/a.ts."), null);
  assert.equal(clarificationRule("All tests pass."), null);
  assert.equal(asksForClarification(null, ["Read", "AskUserQuestion"]), true);
  assert.equal(asksForClarification(null, ["Read"]), null);
  assert.equal(asksForClarification("All tests pass.", []), false);
});
