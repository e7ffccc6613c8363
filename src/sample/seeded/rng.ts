import { seededRandom } from "../../model/seeded-random";
import { sha256 } from "./ids";

/** mulberry32 on a fixed seed: varied-looking but reproducible numbers. */
export class Rng {
  private readonly random: () => number;
  constructor(seed: string) {
    this.random = seededRandom(parseInt(sha256(`seed:${seed}`).slice(0, 8), 16) >>> 0);
  }
  next(): number {
    return this.random();
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  between(min: number, max: number): number {
    return min + this.next() * (max - min);
  }
}
