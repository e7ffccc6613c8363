/**
 * Making text safe inside the HTML report. Handlebars escapes every `{{…}}`;
 * these cover the two places it does not reach: JSON inlined in a
 * `<script>` element, and the inlined JavaScript bundles themselves.
 */
import { maskSecrets } from "../model";

/**
 * JSON that cannot end or comment its `<script>` element: `<` is written
 * `\u003c` (so no `</script` or `<!--`), and `>`, `&`, U+2028 and U+2029
 * are escaped too. It parses back to the same value.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/**
 * A JavaScript bundle ready to inline: its `sourceMappingURL` comment removed
 * (the map is not shipped, and a browser would try to load it), and every
 * `</script` (any case) written `<\/script`, which means the same inside
 * JavaScript strings and regular expressions but cannot close the element.
 */
export function scriptForInline(source: string): string {
  const out = source
    .replace(/^\s*\/\/[#@]\s*sourceMappingURL=.*$/gm, "")
    .replace(/\/\*[#@]\s*sourceMappingURL=[^*]*\*\//g, "")
    .replace(/<\/(script)/gi, "<\\/$1");
  // `<!--` followed by `<script` would put the HTML parser in a state where the real `</script>` no longer ends
  // the element; no general rewrite of `<!--` is safe in JavaScript (e.g. inside a /u regular expression).
  if (/<!--/.test(out)) throw new Error("a bundle to inline contains <!--: it cannot be inlined safely");
  return out;
}

/** A file name for an untrusted id: kept when it is plain ASCII and holds nothing the masking rule would hide, else a short hash of it. */
export function safeFileStem(id: string, hash: (s: string) => string): string {
  const plain = id.length <= 100 && /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(id) && !id.includes("..");
  return plain && maskSecrets(id) === id ? id : `s-${hash(id).slice(0, 16)}`;
}
