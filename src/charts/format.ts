/**
 * Number formatting for captions, labels and the report, written out by
 * hand so that output never depends on the machine's locale or ICU data.
 */

/** 1234567 → "1,234,567". */
export function formatCount(n: number): string {
  const sign = n < 0 ? "-" : "";
  const digits = String(Math.round(Math.abs(n)));
  return sign + digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** A percentage with one decimal, "–" for null. */
export function formatPct(value: number | null | undefined, digits = 1): string {
  return value === null || value === undefined || !Number.isFinite(value) ? "–" : `${value.toFixed(digits)} %`;
}

/** A readable number: 1234.5 → "1,235", 12.34 → "12.3", 1.234 → "1.23", 0.01234 → "0.0123"; "–" for null. */
export function formatNumber(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "–";
  const abs = Math.abs(value);
  if (abs >= 1000) return formatCount(value);
  if (abs === 0) return "0";
  const decimals = abs >= 10 ? 1 : abs >= 1 ? 2 : Math.min(8, 2 - Math.floor(Math.log10(abs)));
  return value.toFixed(decimals);
}

/** "[41.2, 47.9]" for an interval, "" when unknown. */
export function formatInterval(low: number | null | undefined, high: number | null | undefined, digits = 1): string {
  if (low === null || low === undefined || high === null || high === undefined) return "";
  return `[${low.toFixed(digits)}, ${high.toFixed(digits)}]`;
}

/** "n" for 1, else "ns": `plural(3, "unit")` → "3 units". */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${formatCount(n)} ${n === 1 ? word : many}`;
}
