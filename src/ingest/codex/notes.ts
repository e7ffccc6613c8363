import type { DiagnosticSink, Severity } from "../../model";

/** Counted diagnostics: one row per code at the end, with the count and the first line. */
export class Notes {
  private readonly rows = new Map<string, { severity: Severity; count: number; first: number | null; what: string }>();
  add(code: string, severity: Severity, record: number | null, what: string, count = 1): void {
    if (count <= 0) return;
    const r = this.rows.get(code);
    if (r) r.count += count;
    else this.rows.set(code, { severity, count, first: record, what });
  }
  flush(sink: DiagnosticSink, file: string | null): void {
    for (const [code, r] of this.rows) {
      sink.add(
        r.severity,
        code,
        `${r.count} ${r.what}${r.first !== null ? `; first at line ${r.first}` : ""}`,
        r.first,
        file !== null ? { file } : {},
      );
    }
    this.rows.clear();
  }
}
