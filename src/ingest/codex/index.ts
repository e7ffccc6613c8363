export { parseCodexRollout, type CodexRolloutInput } from "./parse";
export { normaliseCodexUsage, CodexTokenCounter } from "./tokens";
export {
  fileEditsFromChanges,
  fileEditsFromPatchText,
  extractPatchText,
  isApplyPatchCommand,
  patchTextOfCall,
  parseArguments,
  emptyPatchNotes,
  type PatchNotes,
} from "./file-edits";
export { outcomeOfOutput } from "./tool-calls";
export { classifyRecord, isInjectedUserText } from "./records";
export {
  findCodexRollouts,
  groupCodexRollouts,
  readCodexRollout,
  readHead,
  defaultCodexSessionRoots,
  type CodexRolloutFiles,
} from "./paths";
export * as codexSchema from "./schema";
