export { parseDataClawFile, type DataClawSession, type DataClawInput } from "./parse";
export { findDataClawFiles, readDataClawFile } from "./paths";
export { fileEditsOf, type EditsOf } from "./file-edits";
export { notAPrompt, type NotAPrompt } from "../prompt-text";
export * as dataClawSchema from "./schema";
