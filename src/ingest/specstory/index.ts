export { parseSpecStory, type SpecStorySession, type SpecStoryInput } from "./parse";
export { decodeEntities, cursorChunkLines } from "./blocks";
export { findSpecStoryFiles, readSpecStoryFile } from "./paths";
export * as specStorySchema from "./schema";
