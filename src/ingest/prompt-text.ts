/**
 * Which user texts are real prompts (metrics.md §5 "Session length"): not
 * command output, not an interruption marker, not a compaction summary. Claude
 * Code's markers (formats.md §2.2), told apart by text alone: the Claude Code
 * adapter (beside its `isMeta` / `isCompactSummary` flags) and the formats that
 * keep only the text (DataClaw, SpecStory, Entire's compact transcripts) use it.
 */

const COMMAND_PREFIX =
  /^<(command-name|command-message|command-args|local-command-stdout|local-command-stderr|local-command-caveat|bash-input|bash-stdout|bash-stderr|task-notification)>/;
const INTERRUPT_PREFIX = "[Request interrupted by user";
const COMPACT_PREFIX = "This session is being continued from a previous conversation";

export type NotAPrompt = "empty" | "interrupt" | "command" | "compact";

/** Why a user text is not a prompt, or null when it is one. */
export function notAPrompt(text: string): NotAPrompt | null {
  const t = text.trimStart();
  if (t.trim() === "") return "empty";
  if (t.startsWith(INTERRUPT_PREFIX)) return "interrupt";
  if (t.startsWith(COMPACT_PREFIX)) return "compact";
  if (COMMAND_PREFIX.test(t)) return "command";
  return null;
}
