export * from "./llm";
export * from "./label";
export * from "./agreement";
