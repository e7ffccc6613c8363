import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { attributeAtCommit } from "../../src/attribution/at-commit";
import { agentAuthoredPct, codeSurvivalRate, codingEfficiency } from "../../src/attribution/rates";
import { insertedMask, replayEdits, splitLines, type ReplayStep } from "../../src/replay";
import { step } from "../helpers/calls";

// Small alphabets make lines repeat, which is where diffs get interesting.
const line = fc.constantFrom("a", "b", "c", "{", "}", "", "return x;");
const text = fc.array(line, { maxLength: 12 }).map((ls) => (ls.length ? ls.join("\n") + "\n" : ""));

const scenario = fc.record({
  base: text,
  // Each step: the agent's post-image, whether someone changed the file before it
  // (a different pre-image), and whether the person rewrote the proposal.
  steps: fc.array(fc.record({ outside: fc.option(text, { nil: null }), post: text, userModified: fc.boolean() }), {
    maxLength: 6,
  }),
  commit: text,
  untouched: fc.boolean(),
});

test("metrics.md §4 invariants hold over random edit sequences", () => {
  fc.assert(
    fc.property(scenario, ({ base, steps, commit }) => {
      const replaySteps: ReplayStep[] = [];
      let current = base;
      for (const s of steps) {
        const pre = s.outside ?? current;
        replaySteps.push(
          step("f", { kind: "write", pre_image: pre, post_image: s.post, user_modified: s.userModified }),
        );
        current = s.post;
      }
      const replay = replayEdits(replaySteps, () => base);
      const r = attributeAtCommit(replay, [{ path: "f", base, commit }]);
      assert.ok(0 <= r.agent_lines_survived && r.agent_lines_survived <= r.agent_lines_final);
      assert.ok(r.agent_lines_survived <= r.agent_lines_produced);
      assert.ok(r.agent_lines_survived <= r.total_committed_lines);
      assert.ok(r.agent_lines_final <= r.agent_lines_produced);
      assert.equal(r.total_committed_lines, r.agent_lines_survived + r.human_lines + r.outside_lines);
      // total_committed_lines is exactly what a Myers diff base → commit adds.
      assert.equal(r.total_committed_lines, insertedMask(splitLines(base), splitLines(commit)).filter(Boolean).length);
      for (const rate of [
        codeSurvivalRate(r.agent_lines_survived, r.agent_lines_final),
        codingEfficiency(r.agent_lines_survived, r.agent_lines_produced),
        agentAuthoredPct(r.agent_lines_survived, r.total_committed_lines),
      ]) {
        if (rate !== null) assert.ok(rate >= 0 && rate <= 100, `rate ${rate}`);
      }
    }),
    { seed: 20261130, numRuns: 2000 },
  );
});

test("with no outside change and an unchanged commit, every final agent line that git sees as added survives", () => {
  fc.assert(
    fc.property(text, fc.array(text, { minLength: 1, maxLength: 5 }), (base, posts) => {
      let current = base;
      const steps = posts.map((post) => {
        const s = step("f", { kind: "write", pre_image: current, post_image: post });
        current = post;
        return s;
      });
      const replay = replayEdits(steps, () => base);
      const r = attributeAtCommit(replay, [{ path: "f", base, commit: current }]);
      assert.equal(r.outside_lines, 0);
      assert.equal(r.human_lines + r.agent_lines_survived, r.total_committed_lines);
      // Human lines here can only be agent-deleted base lines that git re-pairs; never more than the base has.
      assert.ok(r.human_lines <= splitLines(base).length);
    }),
    { seed: 7, numRuns: 1000 },
  );
});
