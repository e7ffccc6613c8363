/**
 * Opening an input file without ever blocking or touching a device. A FIFO
 * opened for reading waits for a writer (forever, in a folder of logs); a
 * character or block device may have effects when opened. Every adapter
 * reads through these: a special file is an error the caller turns into a
 * diagnostic, never a hang.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync, type Stats, statSync } from "node:fs";

/** The message of every `*-special-file` diagnostic: `what` is `specialFileKind`'s answer (and how it was reached). */
export const specialFileMessage = (what: string) =>
  `${what}, not a regular file: not opened (reading it could block or touch a device)`;

/** What a non-regular file is, for a message ("a FIFO"); null for a regular file or a folder. */
type FileKindTests = Pick<
  Stats,
  "isFIFO" | "isSocket" | "isCharacterDevice" | "isBlockDevice" | "isFile" | "isDirectory"
>;
export function specialFileKind(stat: FileKindTests): string | null {
  if (stat.isFile() || stat.isDirectory()) return null;
  if (stat.isFIFO()) return "a FIFO (named pipe)";
  if (stat.isSocket()) return "a socket";
  if (stat.isCharacterDevice()) return "a character device";
  if (stat.isBlockDevice()) return "a block device";
  return "a special file";
}

/**
 * A file descriptor for reading `path`, which must be a regular file: checked
 * before opening (so a device is never opened), opened with O_NONBLOCK (so a
 * file swapped for a FIFO in between does not block) and checked again.
 */
export function openRegularFile(path: string): number {
  const before = statSync(path);
  if (!before.isFile()) throw new Error(`not a regular file but ${specialFileKind(before) ?? "a folder"}: not opened`);
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  const after = fstatSync(fd);
  if (!after.isFile()) {
    closeSync(fd);
    throw new Error(`not a regular file but ${specialFileKind(after) ?? "a folder"}: not read`);
  }
  return fd;
}

/** The bytes of a regular file (see `openRegularFile`); throws for anything else. */
export function readRegularFile(path: string): Buffer;
export function readRegularFile(path: string, encoding: "utf8"): string;
export function readRegularFile(path: string, encoding?: "utf8"): Buffer | string {
  const fd = openRegularFile(path);
  try {
    return encoding ? readFileSync(fd, encoding) : readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}
