import { appendFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import type { DiagnosticSink } from "../../model";
import { normaliseLabel, type TaskLabel } from "../taxonomy";

/**
 * Classifier answers by message hash, kept in a JSONL file
 * (`{"key": "<sha256>", "model": "…", "label": "…"}` per line). New answers
 * are appended as they arrive, so an interrupted run keeps what it paid for.
 */
export class LabelCache<L extends string = TaskLabel> {
  private readonly map = new Map<string, L>();
  private buffer: string[] = [];

  constructor(
    private readonly file: string | null,
    sink: DiagnosticSink,
    normalise: (raw: string) => L | null = normaliseLabel as unknown as (raw: string) => L | null,
  ) {
    if (!file || !existsSync(file)) return;
    let bad = 0;
    for (const line of readFileSync(file, "utf8").split("\n")) {
      if (line.trim() === "") continue;
      try {
        const o = JSON.parse(line) as { key?: unknown; label?: unknown };
        const label = typeof o.label === "string" ? normalise(o.label) : null;
        if (typeof o.key === "string" && label) this.map.set(o.key, label);
        else bad++;
      } catch {
        bad++;
      }
    }
    if (bad > 0) sink.warn("taskflow-cache-bad-lines", `${file}: ${bad} cache line(s) unreadable and ignored`);
  }

  get size(): number {
    return this.map.size;
  }

  get(key: string): L | undefined {
    return this.map.get(key);
  }

  put(key: string, model: string, label: L): void {
    this.map.set(key, label);
    if (!this.file) return;
    this.buffer.push(JSON.stringify({ key, model, label }) + "\n");
    if (this.buffer.length >= 20) this.flush();
  }

  flush(): void {
    if (!this.file || this.buffer.length === 0) return;
    mkdirSync(dirname(this.file), { recursive: true });
    appendFileSync(this.file, this.buffer.join(""));
    this.buffer = [];
  }
}
