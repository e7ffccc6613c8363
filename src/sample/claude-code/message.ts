/** The pieces of one assistant response: content blocks and the API call's usage. */
import type { SampleUsage } from "../types";

export type Block = { type: "text"; text: string } | { type: "thinking"; thinking: string };

export const text = (t: string): Block => ({ type: "text", text: t });
export const thinking = (t: string): Block => ({ type: "thinking", thinking: t });

export interface ApiCall {
  messageId: string;
  model: string;
  input: number;
  output: number;
  cacheCreation: number;
  cacheRead: number;
  /** 0-based index of the record carrying the final usage. */
  record: number;
}

/** Token totals of API calls, one count per call. */
export function sumUsage(calls: ApiCall[]): SampleUsage {
  const u: SampleUsage = {
    api_calls: 0,
    input_tokens: 0,
    output_tokens: 0,
    cache_creation_tokens: 0,
    cache_read_tokens: 0,
  };
  for (const c of calls) {
    u.api_calls += 1;
    u.input_tokens += c.input;
    u.output_tokens += c.output;
    u.cache_creation_tokens += c.cacheCreation;
    u.cache_read_tokens += c.cacheRead;
  }
  return u;
}
