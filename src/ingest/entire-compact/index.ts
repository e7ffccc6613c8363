export { parseEntireCompactTranscript, COMPACT_FORMAT_VERSION, type EntireCompactTranscriptInput } from "./parse";
export { compactAgentName, compactSource, peekCompactAgent } from "./agents";
export { fileEditsOfCall, isCompactFileTool, EDIT_PROBLEM_NOTES, type CallEdits, type EditProblem } from "./file-edits";
export { userTextOf, notAPromptNote, type UserText, type NotAPromptNote } from "./prompts";
export * as entireCompactSchema from "./schema";
export { readEntireCompactTranscript } from "./paths";
