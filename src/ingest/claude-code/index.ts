export {
  parseClaudeCodeTranscript,
  normaliseUsage,
  CLAUDE_FILE_EDIT_TOOLS,
  type ClaudeCodeTranscriptInput,
} from "./parse";
export { applyClaudeEdits, CLAUDE_STRING_EDIT_TOOLS, type ClaudeEditResult } from "../../model";
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
