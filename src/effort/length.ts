/**
 * Session length (metrics.md §5): the number of real user prompts, binned
 * 1, 2, 3, 4, 5, 6-10, 11+ (ASCII hyphen and plus).
 *
 * Zero prompts. Sessions with no real prompt exist (sub-agent-only
 * transcripts, sessions resumed without a new prompt, logs whose prompts were
 * all filtered out). They get their own bin, "0", which is NOT in
 * `LENGTH_BINS` (the paper's seven bins, used for the Task Flow length
 * distribution) but is in `ALL_LENGTH_BINS`, so a report can show them
 * separately instead of folding them into "1" or dropping them silently.
 */

export const ZERO_PROMPT_BIN = "0";
export const LENGTH_BINS = ["1", "2", "3", "4", "5", "6-10", "11+"] as const;
export const ALL_LENGTH_BINS = [ZERO_PROMPT_BIN, ...LENGTH_BINS] as const;

export type LengthBin = (typeof ALL_LENGTH_BINS)[number];

/** The bin of a prompt count (a whole number ≥ 0; anything else throws RangeError). */
export function lengthBin(prompts: number): LengthBin {
  if (!Number.isInteger(prompts) || prompts < 0)
    throw new RangeError(`prompt count must be a whole number ≥ 0, got ${prompts}`);
  if (prompts === 0) return ZERO_PROMPT_BIN;
  if (prompts <= 5) return LENGTH_BINS[prompts - 1];
  if (prompts <= 10) return "6-10";
  return "11+";
}
