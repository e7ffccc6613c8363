import { type DiagnosticSink, PROMPT_PUSHBACK, type PromptPushback } from "../../model";
import { PUSHBACK_RULES } from "../../signals";
import { classifyWithEndpoint, type LabelSpec, type LlmOptions, type LlmStats } from "../classify/llm";

/**
 * SWE-chat's pushback labels from an LLM, over the same OpenAI-compatible
 * endpoint, cache and retries as Task Flow's classifier: the kinds'
 * definitions (those of the rule classifier, in words) and a structured
 * answer restricted to the seven labels.
 */
export const PUSHBACK_PROMPT_VERSION = "pushback-v1";

export const PUSHBACK_INSTRUCTION =
  "You label one message a user wrote to an AI coding agent. Say whether the user pushes back on the agent's previous work, and how. " +
  "Pick exactly one label. Use non_pushback when the message does not push back (a new request, a question, thanks, a go-ahead).";

export function pushbackDefinitions(): string {
  return [...PUSHBACK_RULES.map((r) => `${r.kind}: ${r.describe}`), "non_pushback: anything else"].join("\n");
}

const normalise = (raw: string): PromptPushback | null => {
  const v = raw.trim().toLowerCase().replace(/[- ]/g, "_");
  return (PROMPT_PUSHBACK as readonly string[]).includes(v) ? (v as PromptPushback) : null;
};

export const PUSHBACK_SPEC: LabelSpec<PromptPushback> = {
  promptVersion: PUSHBACK_PROMPT_VERSION,
  system: `${PUSHBACK_INSTRUCTION}\n\nLabels (label: definition):\n${pushbackDefinitions()}\n\nAnswer with JSON: {"pushback": "<label>"}.`,
  field: "pushback",
  labels: PROMPT_PUSHBACK,
  normalise,
  empty: "non_pushback",
};

export function classifyPushbackWithLlm(
  texts: readonly string[],
  options: LlmOptions,
  sink: DiagnosticSink,
): Promise<{ labels: (PromptPushback | null)[]; stats: LlmStats }> {
  return classifyWithEndpoint(PUSHBACK_SPEC, texts, options, sink);
}
