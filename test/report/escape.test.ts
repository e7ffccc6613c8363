/** Escaping and masking: what keeps transcript text inert inside the report. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { looksLikeSecret, maskSecrets } from "../../src/model";
import { jsonForScript, safeFileStem, scriptForInline, vegaRuntime } from "../../src/report";
import { stemsFor } from "../../src/report/session-pages";

test("JSON inlined in a script element cannot close it, and parses back to the same value", () => {
  const value = {
    model: "</script><script>alert(1)</script>",
    prompt: "<!-- x --> & \u2028 \u2029 <img src=x onerror=alert(1)>",
  };
  const json = jsonForScript(value);
  assert.ok(!json.includes("<") && !json.includes(">") && !json.includes("&"), json);
  assert.ok(!json.includes("\u2028") && !json.includes("\u2029"));
  assert.deepEqual(JSON.parse(json), value);
});

test("inlined bundles: source map comments dropped, </script written <\\/script in any case", () => {
  const code = 'var a = "</script>"; var b = "</SCRIPT >";\n//# sourceMappingURL=vega.min.js.map\n';
  const out = scriptForInline(code);
  assert.equal(out, 'var a = "<\\/script>"; var b = "<\\/SCRIPT >";\n\n');
  assert.throws(() => scriptForInline("var c = '<!--';"), /cannot be inlined safely/);
});

test("the four Vega scripts load from node_modules with nothing that could end their element or fetch a map", () => {
  const runtime = vegaRuntime();
  assert.deepEqual(
    runtime.map((r) => r.name),
    ["vega", "vega-interpreter", "vega-lite", "vega-embed"],
  );
  for (const r of runtime) {
    assert.ok(!/<\/script/i.test(r.code), r.name);
    assert.ok(!/sourceMappingURL/.test(r.code), r.name);
    assert.ok(r.code.length > 5000, r.name);
  }
  // The interpreter became a classic script that registers itself.
  assert.match(runtime[1].code, /window\.vegaExpressionInterpreter = expression;/);
  assert.ok(!/^\s*(import|export)\s/m.test(runtime[1].code));
});

test("known key formats are masked with their prefix kept", () => {
  const text =
    "export ANTHROPIC_API_KEY=sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789 then " +
    "git clone https://ghp_0123456789abcdefghijABCDEFGHIJ012345@github.com/x/y, " +
    "aws AKIAIOSFODNN7EXAMPLE, bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U.";
  assert.equal(
    maskSecrets(text),
    "export ANTHROPIC_API_KEY=sk-ant-[masked] then git clone https://ghp_[masked]@github.com/x/y, aws AKIA[masked], bearer JWT [masked].",
  );
});

test("long random tokens are masked; SHAs, UUIDs, paths, model names and identifiers are not", () => {
  assert.equal(maskSecrets("token=Zx8Qp2Lm9Vt4Rk7Ws1Yn6Hb3Jd5Fg0Ca8Ne2Mu;"), "token=[masked];");
  const kept = [
    "09b9d5750e75bad01373ef3cf89add5f9aeaa8dc",
    "10ae249a-fc0e-4fd2-98c7-1ef9578c5f4a",
    "src/components/VeryLongComponentNameForTesting2.tsx",
    "claude-sonnet-4-5-20250929",
    "handleUserAuthenticationCallbackForOAuth2Provider",
    "getServerSideProps2AndStaticPropsForNextJSPages",
  ];
  for (const k of kept) assert.equal(maskSecrets(k), k, k);
  assert.equal(looksLikeSecret("Zx8Qp2Lm9Vt4Rk7Ws1Yn6Hb3Jd5Fg0Ca"), true, "32 characters");
  assert.equal(looksLikeSecret("Zx8Qp2Lm9Vt4Rk7Ws1Yn6Hb3Jd5Fg0C"), false, "31 characters is below the length floor");
});

test("content checksums (go.sum h1:, Subresource Integrity sha512-) are not secrets; the same token bare is", () => {
  const token = "Zx8Qp2Lm9Vt4Rk7Ws1Yn6Hb3Jd5Fg0Ca8Ne2Mu+/w=";
  for (const kept of [
    `github.com/stretchr/testify v1.11.1 h1:${token}`,
    `"integrity": "sha512-${token}"`,
    `<script integrity="sha384-${token}">`,
  ])
    assert.equal(maskSecrets(kept), kept, kept);
  assert.equal(maskSecrets(`key ${token}`), "key [masked]");
  assert.equal(maskSecrets(`h2:${token}`), "h2:[masked]");
});

test("session ids become file names only when plain; anything else is hashed", () => {
  // A stand-in hash: "h" + the id's length, padded; the stem keeps its first 16 characters.
  const hash = (s: string) => `h${s.length}`.padEnd(20, "0");
  assert.equal(safeFileStem("10ae249a-fc0e-4fd2-98c7-1ef9578c5f4a", hash), "10ae249a-fc0e-4fd2-98c7-1ef9578c5f4a");
  assert.equal(safeFileStem("../../etc/passwd", hash), "s-h160000000000000");
  assert.equal(safeFileStem("<script>", hash), "s-h800000000000000");
  assert.equal(safeFileStem("a..b", hash), "s-h400000000000000");
});

test("no session page takes the name of the list of all sessions, nor another page's (case-insensitive file systems)", () => {
  // A session id "index" would have overwritten sessions/index.html; "INDEX" would on macOS and Windows;
  // "Ab" and "aB" would be one file there.
  const stems = stemsFor(["index", "INDEX", "Ab", "aB", "plain-id"]);
  const names = [...stems.values()];
  assert.equal(stems.get("plain-id"), "plain-id");
  assert.equal(stems.get("Ab"), "Ab");
  assert.ok(
    names.every((n) => n.toLowerCase() !== "index"),
    names.join(" "),
  );
  assert.equal(new Set(names.map((n) => n.toLowerCase())).size, names.length);
  assert.match(stems.get("index")!, /^s-[0-9a-f]{16}$/);
});
