export {
  parseClaudeCodeTranscript,
  applyClaudeEdits,
  normaliseUsage,
  CLAUDE_FILE_EDIT_TOOLS,
  type ClaudeCodeTranscriptInput,
  type ClaudeEditResult,
} from "./parse";
export {
  findClaudeCodeTranscripts,
  readClaudeCodeTranscript,
  subagentFilesOf,
  claudeProjectDirName,
  defaultClaudeProjectRoots,
  type ClaudeCodeTranscriptFiles,
  type FindOptions,
} from "./paths";
export * as claudeCodeSchema from "./schema";
