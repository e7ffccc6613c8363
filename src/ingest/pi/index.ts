export { parsePiSession, piSessionIdFromFileName, PI_BUILTIN_TOOLS, type PiSessionInput } from "./parse";
export { piFileEdits, piPathOf, piReplacements, PI_FILE_TOOLS, emptyPiEditNotes, type PiEditNotes } from "./file-edits";
export { orderReplacements, allExactInPatch, type Replacement } from "./replacements";
export { homeOfCwd } from "./tool-path";
export { copiedHistory, type CopiedHistory } from "./fork";
export { normalisePiUsage } from "./usage";
export { activeBranch, type TreeNode } from "./tree";
export { findPiSessions, readPiSession, defaultPiSessionRoots } from "./paths";
export * as piSchema from "./schema";
