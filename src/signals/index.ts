/**
 * Conversation signals read from text by transparent rules (they read the
 * model only): user pushback in SWE-chat's kinds and agent clarification
 * requests. The LLM option and imported labels are in src/taskflow/pushback.
 */
export * from "./pushback-rules";
export * from "./clarification-rules";
