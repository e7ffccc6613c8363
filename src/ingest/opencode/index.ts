export { parseOpenCodeSession, normaliseOpenCodeUsage, type OpenCodeSessionInput } from "./parse";
export { openCodeFileEdits, OPENCODE_FILE_TOOLS } from "./file-edits";
export {
  isOpenCodeStorage,
  listOpenCodeStorageSessions,
  readOpenCodeStorageSession,
  defaultOpenCodeStorageRoots,
  type OpenCodeStorageSession,
} from "./storage";
export { findOpenCodeSessions, readOpenCodeSession, type OpenCodeSource } from "./paths";
export * as openCodeSchema from "./schema";
