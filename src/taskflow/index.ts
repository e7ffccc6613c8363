/**
 * Task Flow and TFAS (SWE-TaskFlow, arXiv 2610.09633; metrics.md §7): the
 * taxonomy, three label sources (imported, rules, LLM), the corpus-level
 * distributions, the alignment score with bootstrap intervals and
 * per-key divergence, saved flows, and chart specs.
 */
export * from "./taxonomy";
export * from "./model";
export * from "./flow";
export * from "./jsd";
export * from "./tfas";
export * from "./bootstrap";
export * from "./agreement";
export * from "./classify/rules";
export * from "./prompts/from-transcript";
export * from "./prompts/from-chat-logs";
export * from "./prompts/from-swe-agent";
export * from "./prompts/read-inputs";
export * from "./saved";
export * from "./charts";
export * from "./report";
export * from "./load-input";
export * from "./classify/llm";
export * from "./classify/cache";
export * from "./classify/parse-answer";
export * from "./labels/swe-chat-intent";
export * from "./labels/from-imported";
export * from "./labels/labelled-corpus";
export * from "./labels/parse-csv";
export * from "./pushback";
