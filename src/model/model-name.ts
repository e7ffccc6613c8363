/**
 * A model name without a trailing `[…]` variant label. Claude Code's settings
 * name a context-window variant `claude-opus-4-6[1m]`; the API records of the
 * same calls say `claude-opus-4-6`. One rule for the Entire adapter (which
 * reads such labels from metadata) and the price lookup.
 */
export function withoutVariantLabel(name: string): string {
  const bare = name.replace(/\[[^\]]*\]$/, "").trim();
  return bare === "" ? name : bare;
}
