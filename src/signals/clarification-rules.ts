/**
 * Whether the agent's reply to a prompt asks the user for clarification
 * (SWE-chat's "agents ask for clarification in 1.4 % of turns"): a
 * transparent rule, not a model. It fires on an `AskUserQuestion` call
 * (Claude Code's tool for exactly this) in the reply, or on a question in the
 * reply's last paragraph that asks the user to decide, clarify or supply
 * something (CLARIFICATION_RULES). Offers ("Would you like me to commit?")
 * and rhetorical questions are not requests: they name no missing input.
 */
export interface ClarificationRule {
  id: string;
  describe: string;
  pattern: RegExp;
}

/** Tools whose call is itself a question to the user. */
export const ASKING_TOOLS: ReadonlySet<string> = new Set([
  "askuserquestion",
  "ask_user",
  "ask_followup_question",
  "request_user_input",
]);

export const CLARIFICATION_RULES: readonly ClarificationRule[] = [
  {
    id: "clarify",
    describe: 'asks what the user means: "could you clarify", "what do you mean", "did you mean", "please specify"',
    pattern:
      /\b(could|can|would) you (please )?(clarify|specify|confirm|explain what|tell me (what|which|whether))|what do you mean|did you mean|do you mean|please (clarify|specify|confirm)|to clarify,? (do|did|are|should)/,
  },
  {
    id: "choose",
    describe: 'asks the user to choose: "which one/option/approach …?", "should I … or …?", "do you want … or …?"',
    pattern:
      /\bwhich (one|option|approach|file|version|of (these|the|them)|would you prefer)\b[^?]*\?|\b(should i|do you want( me to)?|would you prefer( i| me to)?)\b[^?]{1,160}\bor\b[^?]*\?/,
  },
  {
    id: "missing-input",
    describe:
      'says it needs something from the user first: "I need more information", "before I proceed, …?", "a few questions"',
    pattern:
      /\b(i need (more|some|a bit more) (information|details|context)|a (few|couple of) (quick )?questions|can you (share|provide|paste|send) (the|a|more|your))\b|\bbefore i (start|proceed|continue|go ahead)[^?]*\?/,
  },
];

/** The reply's last paragraph, lower-cased (a request for input closes a reply). */
export function closingParagraph(reply: string): string {
  const paragraphs = reply
    .replace(/[\u2018\u2019]/g, "'")
    .trim()
    .split(/\n\s*\n/);
  return (paragraphs[paragraphs.length - 1] ?? "").toLowerCase();
}

/** The id of the rule that fires on the reply text, or null. */
export function clarificationRule(reply: string): string | null {
  const last = closingParagraph(reply);
  if (!last.includes("?")) return null;
  for (const rule of CLARIFICATION_RULES) if (rule.pattern.test(last)) return rule.id;
  return null;
}

/**
 * The agent's reply to one prompt asks for clarification: true when it called an asking tool or its text fires a
 * rule; false when its text is known and fires none; null when neither the text nor an asking call is in the input.
 */
export function asksForClarification(reply: string | null, toolNames: readonly string[]): boolean | null {
  if (toolNames.some((n) => ASKING_TOOLS.has(n.toLowerCase()))) return true;
  if (reply === null) return null;
  return clarificationRule(reply) !== null;
}
