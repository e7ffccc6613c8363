export * from "./published";
export * from "./figures";
export * from "./rolling";
