import { sha256 } from "./ids";

/** mulberry32 on a fixed seed: varied-looking but reproducible numbers. */
export class Rng {
  private state: number;
  constructor(seed: string) {
    this.state = parseInt(sha256(`seed:${seed}`).slice(0, 8), 16) >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  between(min: number, max: number): number {
    return min + this.next() * (max - min);
  }
}
