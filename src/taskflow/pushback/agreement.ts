import { PROMPT_PUSHBACK, type PromptPushback, type PromptRow } from "../../model";
import { classifyPushback } from "../../signals";
import { type Agreement, agreementMarkdown, measureAgreementOver } from "../agreement";

/**
 * The rule classifier against the dataset's own `prompt_pushback` labels:
 * per label precision and recall over the prompts that carry a label (the
 * README's table, printed by scripts/pushback-agreement.ts).
 */
export function pushbackAgreement(prompts: readonly PromptRow[]): Agreement<PromptPushback> {
  const pairs = prompts.flatMap((p) =>
    p.prompt_pushback ? [{ gold: p.prompt_pushback, predicted: classifyPushback(p.text).label }] : [],
  );
  return measureAgreementOver(PROMPT_PUSHBACK, pairs);
}

export const pushbackAgreementMarkdown = (a: Agreement<PromptPushback>): string => agreementMarkdown(a);
