/** Deterministic ids derived from fixed keys: the same key gives the same id on every machine. */
import { createHash } from "node:crypto";

export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

export function uuidFor(key: string): string {
  const h = sha256(`uuid:${key}`);
  const variant = "89ab"[parseInt(h[16], 16) & 3];
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

export function base58For(key: string, length: number): string {
  let out = "";
  for (let round = 0; out.length < length; round++) {
    const bytes = createHash("sha256").update(`b58:${round}:${key}`).digest();
    for (let i = 0; i < bytes.length && out.length < length; i++) out += BASE58[bytes[i] % 58];
  }
  return out;
}

export function signatureFor(key: string): string {
  const parts: Buffer[] = [];
  for (let i = 0; i < 5; i++) parts.push(createHash("sha256").update(`sig:${i}:${key}`).digest());
  return `Eq${Buffer.concat(parts).toString("base64")}`;
}

/** The checkpoint id Entire would have drawn, derived from a scenario name instead. */
export function checkpointId(name: string): string {
  return sha256(`checkpoint:${name}`).slice(0, 12);
}
