/**
 * mulberry32: a small seeded generator of numbers in [0, 1). Every seeded
 * figure (bootstrap intervals, the sample corpora) draws from it, so the same
 * seed gives the same tables and figures. Here, in the model, because every
 * stage may use it and it depends on nothing.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
