export {
  parseGeminiSession,
  normaliseGeminiUsage,
  geminiText,
  GEMINI_UNKNOWN_ROOT,
  type GeminiSessionInput,
} from "./parse";
export { loadGeminiConversation, type LoadedConversation } from "./load";
export { findGeminiSessions, readGeminiSession, defaultGeminiRoots } from "./paths";
export * as geminiSchema from "./schema";
