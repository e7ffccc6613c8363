/**
 * One bad field in Entire's metadata costs that field only: a wrong-typed count inside
 * `token_usage` drops that count, not Entire's whole token record, and a partial
 * `initial_attribution` keeps the counts it has (found by the session-5 adversarial round:
 * `input_tokens: "10"` used to null `entire_output_tokens` too, and a lone `agent_percentage`
 * was thrown away).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { parseLenient, sessionMetadataSchema } from "../../src/ingest/entire";
import { toAttribution } from "../../src/ingest/entire/parse";

test("a wrong-typed count inside token_usage drops that count only, and the caller's object is not changed", () => {
  const raw = {
    session_id: "s1",
    token_usage: { input_tokens: "10", output_tokens: 40, subagent_tokens: { output_tokens: "x", input_tokens: 3 } },
    checkpoint_transcript_start: 5,
  };
  const before = JSON.stringify(raw);
  const parsed = parseLenient(sessionMetadataSchema, raw)!;
  assert.equal(JSON.stringify(raw), before, "the input is copied, not edited");
  assert.equal(parsed.value.token_usage?.input_tokens, undefined);
  assert.equal(parsed.value.token_usage?.output_tokens, 40, "the valid sibling survives");
  assert.equal(parsed.value.token_usage?.subagent_tokens?.input_tokens, 3, "two levels down, too");
  assert.equal(parsed.value.checkpoint_transcript_start, 5);
  assert.deepEqual(parsed.problems.map((p) => p.field).sort(), [
    "token_usage.input_tokens",
    "token_usage.subagent_tokens.output_tokens",
  ]);
});

test("a wrong-typed top-level field is still dropped whole, and an array is not spliced", () => {
  const parsed = parseLenient(sessionMetadataSchema, {
    session_id: "s1",
    token_usage: "lots",
    files_touched: ["a", 3],
  })!;
  assert.equal(parsed.value.token_usage, undefined);
  // files_touched[1] is a number: the array goes, not its second element (the others would shift).
  assert.equal(parsed.value.files_touched, undefined);
  assert.deepEqual(parsed.problems.map((p) => p.field).sort(), ["files_touched.1", "token_usage"]);
});

test("a partial initial_attribution keeps what it has and names what it lacks", () => {
  const messages: string[] = [];
  const kept = toAttribution({ agent_percentage: 50 }, (m) => messages.push(m));
  assert.deepEqual(kept, {
    agent_lines: null,
    human_added: null,
    human_modified: null,
    human_removed: null,
    total_committed: null,
    agent_percentage: 50,
  });
  assert.deepEqual(messages, ["initial_attribution lacks agent_lines, total_committed; the other counts are kept"]);

  messages.length = 0;
  assert.equal(
    toAttribution({ calculated_at: "2026-01-01T00:00:00Z" }, (m) => messages.push(m)),
    null,
  );
  assert.deepEqual(messages, ["initial_attribution holds no counts; not kept"]);

  messages.length = 0;
  const whole = toAttribution({ agent_lines: 3, total_committed: 4, agent_percentage: 75 }, (m) => messages.push(m));
  assert.equal(whole?.agent_lines, 3);
  assert.deepEqual(messages, []);
});
