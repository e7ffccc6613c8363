import { z } from "zod";

/**
 * One thing that went wrong or was left out, as a row of the `diagnostics`
 * table. Bad input never throws and is never dropped silently: it becomes one
 * of these, with a stable `code` a reader can group by.
 */
export const diagnosticSchema = z.object({
  source: z.string(),
  session_id: z.string().nullable(),
  file: z.string().nullable(),
  /** 1-based line (JSONL) or record index the diagnostic is about, when known. */
  record: z.number().int().nullable(),
  severity: z.enum(["info", "warning", "error"]),
  code: z.string(),
  message: z.string(),
});
export type Diagnostic = z.infer<typeof diagnosticSchema>;
export type Severity = Diagnostic["severity"];

/** Collects diagnostics for one input; adapters take one and never throw on bad data. */
export class DiagnosticSink {
  readonly rows: Diagnostic[] = [];
  constructor(
    public source: string,
    public file: string | null = null,
    public sessionId: string | null = null,
  ) {}

  add(
    severity: Severity,
    code: string,
    message: string,
    record: number | null = null,
    extra: Partial<Diagnostic> = {},
  ): void {
    this.rows.push({
      source: this.source,
      session_id: this.sessionId,
      file: this.file,
      record,
      severity,
      code,
      message,
      ...extra,
    });
  }
  error(code: string, message: string, record: number | null = null): void {
    this.add("error", code, message, record);
  }
  warn(code: string, message: string, record: number | null = null): void {
    this.add("warning", code, message, record);
  }
  info(code: string, message: string, record: number | null = null): void {
    this.add("info", code, message, record);
  }
}
