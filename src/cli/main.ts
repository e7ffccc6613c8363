import { Command, CommanderError } from "commander";
import { COMMANDS } from "./commands";
import { EXIT } from "./commands/types";

export { EXIT } from "./commands/types";

/** Runs the CLI with `argv` (without node and script) and returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  let exitCode: number = EXIT.ok;
  const program = new Command()
    .name("swe-chat-eval")
    .description("How much agent-written code survives into commits, at what cost.")
    .exitOverride()
    // Subcommands own the options after their name (taskflow and taskflow label both have --out).
    .enablePositionalOptions()
    .configureOutput({ writeOut: (s) => process.stdout.write(s), writeErr: (s) => process.stderr.write(s) });
  for (const register of COMMANDS) register(program, (code) => (exitCode = code));
  try {
    await program.parseAsync(argv, { from: "user" });
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    // An output path that cannot be written (a file where a folder is wanted, no permission, a full disk) is the
    // caller's to fix: one line, no stack trace. Anything else is a bug and keeps its trace.
    if (isFileSystemError(err)) {
      process.stderr.write(`swe-chat-eval: ${err.message}\n`);
      return EXIT.usage;
    }
    throw err;
  }
  return exitCode;
}

const FILE_SYSTEM_CODES = new Set([
  "EACCES",
  "EEXIST",
  "EISDIR",
  "ENOTDIR",
  "ENOSPC",
  "EROFS",
  "EPERM",
  "ENAMETOOLONG",
  "EDQUOT",
]);

function isFileSystemError(err: unknown): err is NodeJS.ErrnoException {
  return (
    err instanceof Error &&
    typeof (err as NodeJS.ErrnoException).code === "string" &&
    FILE_SYSTEM_CODES.has((err as NodeJS.ErrnoException).code!)
  );
}
