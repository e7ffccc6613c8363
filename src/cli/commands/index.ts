import { registerAnalyzeCommand } from "./analyze";
import type { RegisterCommand } from "./types";

/** Every command of the CLI, in help order. One line per command file. */
export const COMMANDS: RegisterCommand[] = [
  registerAnalyzeCommand,
];
