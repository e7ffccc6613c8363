/**
 * The repository's plan: which generated sessions it holds (and in which
 * order), which quirk each session is meant to carry, and whether a quirk
 * fits the session it landed on.
 */
import { generateSession, type Rng } from "../generate-corpus";
import { type Quirk, QUIRK_RATES } from "./manifest";
import { commitFiles, readSession, type SessionLog } from "./session-log";

/** Candidate i is used when its transcript has at least `minKb` KiB, or every 10th candidate: a mix of long and short sessions. */
export function selectSessions(
  seed: number,
  count: number,
  minKb: number,
  log: (l: string) => void,
): { index: number; end: number }[] {
  const picked: { index: number; end: number }[] = [];
  for (let i = 0; picked.length < count; i++) {
    const s = generateSession(seed, i);
    if (s.text.length < minKb * 1024 && i % 10 !== 0) continue;
    const at = s.text.lastIndexOf('"timestamp":"');
    picked.push({ index: i, end: Date.parse(s.text.slice(at + 13, at + 37)) });
    if (picked.length % 100 === 0) log(`  selected ${picked.length} / ${count} sessions (${i + 1} candidates)`);
  }
  return picked.sort((a, b) => a.end - b.end || a.index - b.index);
}

/** The quirk schedule: each quirk's share of the sessions, spread by a seeded shuffle. */
export function schedule(rng: Rng, count: number): (Quirk | null)[] {
  const out: (Quirk | null)[] = [];
  for (const [q, rate] of Object.entries(QUIRK_RATES) as [Quirk, number][])
    for (let n = Math.max(1, Math.round(rate * count)); n > 0; n--) out.push(q);
  while (out.length < count) out.push(null);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/**
 * Whether `quirk` fits session `s`, the k-th of `order`: two-sessions needs
 * the next session with disjoint files (`partner`), two-checkpoints a prompt
 * boundary with edits on both sides (`split`), the commit quirks enough
 * patched files. A quirk that does not fit waits for the next session.
 */
export function fitQuirk(
  seed: number,
  order: { index: number }[],
  k: number,
  s: SessionLog,
  quirk: Quirk | null,
  files: ReturnType<typeof commitFiles>,
): { feasible: boolean; partner: SessionLog | null; split: number } {
  const { prepare, final } = files;
  const paths = new Set([...prepare.keys(), ...final.keys()]);
  let partner: SessionLog | null = null;
  let split = -1;
  if (quirk === "two-sessions") {
    partner = k + 1 < order.length ? readSession(seed, order[k + 1].index) : null;
    const p = partner ? commitFiles(partner) : null;
    if (!partner || !p || [...p.prepare.keys(), ...p.final.keys()].some((x) => paths.has(x))) partner = null;
  } else if (quirk === "two-checkpoints") {
    const ok = s.promptStarts
      .slice(1)
      .filter(
        (L) => s.edits.some((e) => e.rel !== null && e.line < L) && s.edits.some((e) => e.rel !== null && e.line > L),
      );
    if (ok.length > 0) split = ok[Math.floor(ok.length / 2)];
  }
  const feasible =
    quirk === null ||
    (quirk === "two-sessions"
      ? partner !== null
      : quirk === "two-checkpoints"
        ? split > 0
        : quirk === "two-commits"
          ? final.size >= 2
          : ["cherry-pick", "merge", "missing-blob", "body-mention"].includes(quirk)
            ? final.size >= 1
            : true);
  return { feasible, partner, split };
}
