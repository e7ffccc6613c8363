import type { Command } from "commander";

/** Exit codes (architecture.md): 0 success (bad records are in diagnostics), 1 nothing could be read, 2 usage error. */
export const EXIT = { ok: 0, nothingRead: 1, usage: 2 } as const;

/** Each command file exports one of these; `setExit` records the command's exit code. */
export type RegisterCommand = (program: Command, setExit: (code: number) => void) => void;
