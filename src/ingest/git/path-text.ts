/**
 * File names as git stores them are bytes, usually UTF-8. A name that is not
 * UTF-8 (a Latin-1 `caf\xE9.txt`) must not be decoded lossily: two such names
 * would both become `caf\uFFFD.txt` and be read as one file. It is written
 * with each byte above 0x7F as a `\ooo` octal escape, the way git quotes it
 * (`core.quotePath`), the same way wherever a path comes from git.
 */
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

export function decodeGitPath(bytes: Uint8Array): string {
  let ascii = true;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] > 0x7f) {
      ascii = false;
      break;
    }
  }
  if (ascii) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("latin1");
  try {
    return strictUtf8.decode(bytes);
  } catch {
    let out = "";
    for (let i = 0; i < bytes.length; i++)
      out += bytes[i] > 0x7f ? `\\${bytes[i].toString(8)}` : String.fromCharCode(bytes[i]);
    return out;
  }
}

/**
 * {@link decodeGitPath} of `buf[from, to)`, with no view made of an ASCII name (most are): a tree object holds
 * thousands of names, and a view per name was most of the cost of reading them.
 */
export function decodeGitPathAt(buf: Buffer, from: number, to: number): string {
  for (let i = from; i < to; i++) if (buf[i] > 0x7f) return decodeGitPath(buf.subarray(from, to));
  return buf.toString("latin1", from, to);
}

/** The same for a path taken from git output decoded as Latin-1 (one character per byte). */
export const decodeGitPathLatin1 = (text: string): string => decodeGitPath(Buffer.from(text, "latin1"));
