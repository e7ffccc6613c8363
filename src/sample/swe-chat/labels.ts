/**
 * The labels the sample's SWE-chat-shaped tables carry, given by hand the
 * way SWE-chat's LLM labels its data (swe-chat.md §3): an intent and a
 * pushback kind per prompt, a persona and a success score per session. They
 * are the "dataset's own labels" the notebook's figures and the rule
 * classifier's agreement table are computed from on the sample; each has
 * its reason beside it.
 */
import type { PromptIntent, PromptPushback, UserPersona } from "../../model";

export interface SampleSessionLabels {
  persona: UserPersona;
  /** session_success, written as a string as the dataset stores it. */
  success: string;
  prompts: [PromptIntent, PromptPushback][];
}

export const SAMPLE_LABELS: Record<string, SampleSessionLabels> = {
  "s13-legacy": { persona: "Other", success: "90", prompts: [["create new code", "non_pushback"]] },
  "s01-slugify": { persona: "Expert Nitpicker", success: "95", prompts: [["create new code", "non_pushback"]] },
  // "trailing spaces … look bad … can you trim": the first table was not what the user wanted.
  "s02-table": {
    persona: "Expert Nitpicker",
    success: "85",
    prompts: [
      ["create new code", "non_pushback"],
      ["refactor", "correction"],
    ],
  },
  // "continue" after an API error: not pushback.
  "s03-duration": {
    persona: "Other",
    success: "80",
    prompts: [
      ["create new code", "non_pushback"],
      ["other", "non_pushback"],
    ],
  },
  // "no CLI for now, just the exports": the user drops half of the request.
  "s04-exports": {
    persona: "Mind Changer",
    success: "75",
    prompts: [
      ["create new code", "non_pushback"],
      ["create new code", "requirement_change"],
    ],
  },
  "s05-subagent": { persona: "Other", success: "90", prompts: [["test", "non_pushback"]] },
  "s06-plan": {
    persona: "Other",
    success: "70",
    prompts: [
      ["create new code", "non_pushback"],
      ["test", "non_pushback"],
    ],
  },
  "s07a-readme": { persona: "Vague Requester", success: "60", prompts: [["create new code", "non_pushback"]] },
  "s07b-package": { persona: "Vague Requester", success: "45", prompts: [["other", "non_pushback"]] },
  // A bug report, not a reaction to the agent's work.
  "s08-bytes-fix": { persona: "Expert Nitpicker", success: "90", prompts: [["debug", "non_pushback"]] },
  "s09-mislabeled": { persona: "Other", success: "85", prompts: [["create new code", "non_pushback"]] },
  "s10-lost": { persona: "Other", success: "50", prompts: [] },
  "s11-worktree": { persona: "Vague Requester", success: "30", prompts: [["create new code", "non_pushback"]] },
  // "truncate is missing from the index, export it too": the agent left something out.
  "s12-csv": {
    persona: "Expert Nitpicker",
    success: "80",
    prompts: [
      ["create new code", "non_pushback"],
      ["create new code", "correction"],
    ],
  },
};
