export * from "./diagnostic";
export * from "./usage";
export * from "./file-edit";
export * from "./tool-call";
export * from "./turn";
export * from "./session";
export * from "./commit";
export * from "./checkpoint";
