/** Which Claude Code generation writes the transcript: 2.x (streamed records, hooks) or 1.0.x (one record per response). */
export type Style = "2.x" | "1.0";
