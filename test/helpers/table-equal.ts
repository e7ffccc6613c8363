import assert from "node:assert/strict";
import type { ColumnTable } from "../../src/tables";

/** Asserts a whole Arquero table against column literals (arquero's own test idiom). */
export function tableEqual(table: ColumnTable, expected: Record<string, unknown[]>, message?: string): void {
  const actual: Record<string, unknown[]> = {};
  for (const name of Object.keys(expected))
    actual[name] = table.array(name) ? Array.from(table.array(name) as ArrayLike<unknown>) : [];
  assert.deepEqual(actual, expected, message);
}
