/**
 * Which compact user lines are real prompts (metrics.md §5 "Session
 * length"). The compaction already dropped tool results, but not `isMeta`
 * records, command output, interruption markers or compaction summaries; the
 * flags that told them apart are gone, so the shared text rules decide
 * (../prompt-text.ts, as for the Claude Code, DataClaw and SpecStory
 * adapters), plus Codex's injected context.
 */
import type { Severity } from "../../model";
import { isInjectedUserText } from "../codex";
import { notAPrompt } from "../prompt-text";
import { parseUserTextBlock } from "./schema";

export interface UserText {
  text: string;
  hasImage: boolean;
  /** Blocks that are neither text nor image. */
  otherBlocks: number;
}

/** The text of a user line's content (`[{id?, text}]` blocks, images verbatim, or a plain string); null when it has none. */
export function userTextOf(content: unknown): UserText | null {
  if (typeof content === "string") return { text: content, hasImage: false, otherBlocks: 0 };
  if (!Array.isArray(content)) return null;
  const parts: string[] = [];
  let hasImage = false;
  let otherBlocks = 0;
  for (const block of content) {
    const tb = parseUserTextBlock(block);
    if (tb.success) parts.push(tb.data.text);
    else if (typeof block === "object" && block !== null && (block as { type?: unknown }).type === "image")
      hasImage = true;
    else otherBlocks++;
  }
  return { text: parts.join("\n"), hasImage, otherBlocks };
}

export interface NotAPromptNote {
  key: string;
  code: string;
  severity: Severity;
  what: string;
}

/** Why a user line is not a prompt (a counted diagnostic), or null when it is one. */
export function notAPromptNote(u: UserText): NotAPromptNote | null {
  if (isInjectedUserText(u.text)) {
    return {
      key: "injected",
      code: "entire-compact-injected-context",
      severity: "info",
      what: "user line(s) of injected context (<environment_context>, AGENTS.md, …) not counted as prompts",
    };
  }
  switch (notAPrompt(u.text)) {
    case "interrupt":
      return {
        key: "interrupt",
        code: "entire-compact-interrupt-marker",
        severity: "info",
        what: `"[Request interrupted by user…]" marker(s) not counted as prompts`,
      };
    case "compact":
      return {
        key: "compact",
        code: "entire-compact-compact-summary",
        severity: "info",
        what: "compaction summary line(s) (model-written, not typed) not counted as prompts",
      };
    case "command":
      return {
        key: "command",
        code: "entire-compact-command-record",
        severity: "info",
        what: "slash-command or local-command line(s) (<command-name>, <local-command-stdout>, …) not counted as prompts",
      };
    case "empty":
      // An image with no text is still something the person sent.
      return u.hasImage
        ? null
        : {
            key: "empty",
            code: "entire-compact-empty-prompt",
            severity: "info",
            what: "user line(s) with no text not counted as prompts",
          };
    default:
      return null;
  }
}
