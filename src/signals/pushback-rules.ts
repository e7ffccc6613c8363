import type { PromptPushback, PushbackKind } from "../model";

/**
 * A transparent classifier of user pushback, in SWE-chat's kinds
 * (swe-chat.md §3 `prompt_pushback`): an ordered list of patterns over the
 * opening of a prompt; the first rule that fires decides, and the answer
 * names it; no rule → `non_pushback`. The rules are data (PUSHBACK_RULES),
 * listed in reports and the README; their agreement with the dataset's own
 * LLM labels is measured by scripts/pushback-agreement.ts.
 *
 * Order matters: handing the work over ("I'll do it myself") is a takeover
 * even when it also says "no"; undoing is a rejection before it is a
 * correction; "still fails" reports a failure before it corrects.
 */
export interface PushbackRule {
  id: string;
  kind: PushbackKind;
  /** What the rule looks for, in words. */
  describe: string;
  pattern: RegExp;
}

export const PUSHBACK_RULES: readonly PushbackRule[] = [
  {
    id: "takeover",
    kind: "takeover",
    describe:
      'the user does the work themselves: "I\'ll do it myself", "I fixed it", "let me handle it", "never mind, I …"',
    pattern:
      /\b(i'?ll (do|fix|handle|write|take care of) (it|this|that)( myself)?|i (already )?(fixed|did|changed|wrote|reverted) (it|this|that)( myself| manually)?|let me (do|handle|fix) (it|this|that)|never ?mind,? i|i'?ll take it from here|i did it manually|i'?ve (already )?(fixed|changed|done) (it|this|that))\b/,
  },
  {
    id: "rejection",
    kind: "rejection",
    describe:
      'the user undoes or refuses the change: revert, undo, roll back, "don\'t do that", "I don\'t want", "stop"',
    pattern:
      /\b(revert|undo|roll ?back|back out|throw (it|this) away|discard (it|this|that|the changes?)|don'?t do (that|this|it)|do not do (that|this)|i don'?t want (that|this|it)|that'?s not (needed|necessary)|remove (what|everything) you (just )?(added|did|wrote))\b|^(no+|nope|stop)[.!]*$|^stop\b/,
  },
  {
    id: "pacing",
    kind: "pacing_complaint",
    describe:
      'the user complains about the pace or the amount: too slow, taking too long, "just do it", stop asking, too much at once',
    pattern:
      /\b(too (slow|long|much|many|verbose)|taking (so|too) long|hurry( up)?|be (faster|quicker|brief|concise)|just do it|stop (asking|explaining|overthinking|talking)|you'?re overthinking|one (thing|step) at a time|slow down|wait,? (don'?t|stop)|why (is|are) (this|it|you) (taking|still))\b/,
  },
  {
    id: "failure",
    kind: "failure_report",
    describe:
      'the user reports that it still fails: "still not working", "doesn\'t work", "same error", an error or stack trace pasted',
    pattern:
      /\b(still (not working|broken|failing|fails|fail|doesn'?t|does not|the same|getting|an error|crash\w*|wrong)|(it|this|that) (doesn'?t|does not|didn'?t|did not) work|not working|(same|another|new) error|it (fails|failed|crashes|crashed|breaks|broke)|tests? (still )?(fail|failing|failed)|build (fails|failed|is broken)|nothing (changed|happens|happened))\b|(^|\n)\s*(error|traceback|exception|fatal)\b[:\s(]/,
  },
  {
    id: "requirement-change",
    kind: "requirement_change",
    describe:
      'the user changes what they want: "actually, let\'s …", "instead …", "on second thought", "change of plans", "scratch that"',
    pattern:
      /\b(on second thought|change of plans?|scratch that|forget (that|about (that|it|this))|actually,? (let'?s|let us|i (want|need|would like|prefer)|make it|we (should|need|want)|can you)|instead,? (let'?s|please|make|use|do)|let'?s (do|use|go with|try) [^.?!\n]{1,60} instead|new requirement|requirements? (changed|have changed))\b/,
  },
  {
    id: "correction",
    kind: "correction",
    describe:
      'the user says the agent got it wrong: "no, …", "that\'s wrong", "not what I asked", "you forgot/missed", "it should be …", "… is missing", "looks bad"',
    pattern:
      /^(no|nope|not quite|wrong|incorrect)\b[,.! ]|\b(that'?s (wrong|incorrect|not (right|correct|what i (asked|meant|wanted)))|not what i (asked|meant|wanted)|you (forgot|missed|misunderstood|ignored|broke|removed|deleted|didn'?t)|you should(n'?t| not)? have|it should (be|say|use|not)|should be [^.?!\n]{1,40} not|i (said|asked|told you)|why did you|(is|are) (still )?missing|you left out|looks? (bad|wrong|off|broken))\b/,
  },
];

export interface PushbackLabel {
  label: PromptPushback;
  /** The id of the rule that fired; "none" for `non_pushback`. */
  rule: string;
}

/** Where a pushback is said: the opening (400 characters), lower-cased, curly quotes straightened. */
export function pushbackText(text: string): string {
  return text
    .replace(/[\u2018\u2019]/g, "'")
    .trim()
    .toLowerCase()
    .slice(0, 400);
}

export function classifyPushback(text: string): PushbackLabel {
  const t = pushbackText(text);
  for (const rule of PUSHBACK_RULES) if (rule.pattern.test(t)) return { label: rule.kind, rule: rule.id };
  return { label: "non_pushback", rule: "none" };
}
