/**
 * Pi's per-message `usage` → the model's {@link Usage}.
 *
 * pi-ai fills `{input, output, cacheRead, cacheWrite, totalTokens}` per
 * provider (badlogic/pi-mono v0.58.3, packages/ai/src/providers/):
 * - anthropic.ts: input = `input_tokens` (uncached), cacheRead/cacheWrite
 *   = `cache_read_input_tokens` / `cache_creation_input_tokens`, totalTokens =
 *   the sum of all four;
 * - openai-responses-shared.ts and openai-completions.ts: input = prompt
 *   tokens − cached tokens ("OpenAI includes cached tokens in input_tokens,
 *   so subtract"), cacheWrite 0; completions adds `reasoning_tokens` to
 *   output; totalTokens = input + output + cacheRead;
 * - google-gemini-cli.ts: input = `promptTokenCount − cachedContentTokenCount`;
 * - google.ts and google-vertex.ts: input = `promptTokenCount`, which
 *   *includes* the cached tokens (google-gemini-cli.ts says so), cacheRead =
 *   `cachedContentTokenCount`, totalTokens = `totalTokenCount` (= prompt +
 *   output): the cached tokens are counted twice.
 * The total tells the cases apart without trusting provider names: when
 * cacheRead > 0 and totalTokens = input + output + cacheWrite, the cache reads
 * are inside input and are subtracted. Output always includes reasoning.
 * Whether a cache write was a 5-minute or a 1-hour one is not logged (Pi
 * writes 5-minute entries unless PI_CACHE_RETENTION=long): all are 5-minute.
 */
import type { Usage } from "../../model";
import type { PiUsage } from "./schema";

const n = (v: number | undefined): number => (typeof v === "number" && Number.isFinite(v) && v > 0 ? v : 0);

export function normalisePiUsage(u: PiUsage): { usage: Usage; cacheInInput: boolean } {
  let input = n(u.input);
  const output = n(u.output);
  const read = n(u.cacheRead);
  const write = n(u.cacheWrite);
  const total = u.totalTokens;
  const cacheInInput = read > 0 && typeof total === "number" && total === input + output + write && input >= read;
  if (cacheInInput) input -= read;
  return {
    usage: {
      input_tokens: input,
      output_tokens: output,
      cache_creation_tokens: write,
      cache_creation_1h_tokens: 0,
      cache_read_tokens: read,
      reasoning_tokens: 0,
    },
    cacheInInput,
  };
}
