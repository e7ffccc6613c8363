/** Simulated time: fixed start dates advanced by reproducible amounts. */
import type { Rng } from "./rng";

export class Clock {
  constructor(
    public ms: number,
    private readonly rng: Rng,
  ) {}
  iso(): string {
    return new Date(this.ms).toISOString();
  }
  /** Advance by a reproducible amount between min and max seconds. */
  tick(minSeconds: number, maxSeconds: number): void {
    this.ms += Math.round(this.rng.between(minSeconds, maxSeconds) * 1000);
  }
  wait(seconds: number): void {
    this.ms += Math.round(seconds * 1000);
  }
}

export function at(iso: string): number {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new Error(`bad date ${iso}`);
  return ms;
}

/** Entire writes microsecond timestamps. */
export function microIso(ms: number, rng: Rng): string {
  return new Date(ms).toISOString().replace(/Z$/, `${String(rng.int(0, 999)).padStart(3, "0")}Z`);
}
