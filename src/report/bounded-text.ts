/**
 * Every untrusted string the report shows, bounded: cut at a stated cap
 * before anything else reads it (so no escaping, masking or template step
 * grows with a several-hundred-MB prompt), with a note saying how much was
 * cut; then masked (unless secrets are kept) and its bidirectional controls
 * written out.
 */
import { cachedText, maskSecrets, type SecretsPolicy, showBidiControls } from "../model";

/** Characters of one text the report keeps (a prompt, a file name, a message); the tables keep the whole text. */
export const REPORT_TEXT_CAP = 20_000;
/** Characters past the cap masked with the kept part, so a key cut in two is still recognised whole. */
const MASK_LOOKAHEAD = 1024;

/** The first `max` UTF-16 units of `text`, one fewer when the cut would split a surrogate pair. */
function headOf(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

const CUT_MARK = "… [cut here: ";
const noteCut = (shown: string, fullLength: number) =>
  `${shown}${CUT_MARK}the text has ${fullLength.toLocaleString("en-US")} characters; the tables hold it whole]`;

/**
 * A shown text (already through the report masker) cut again to `max`
 * characters for a tighter place (a prompt on a session page), keeping the
 * note with the text's full length: found with lastIndexOf, not a regex.
 */
export function cutShown(text: string, max: number): string {
  if (text.length <= max) return text;
  const at = text.lastIndexOf(CUT_MARK);
  const length = at >= 0 ? null : text.length;
  return length === null ? headOf(text, max) + text.slice(at) : noteCut(headOf(text, max), length);
}

/** The text cut at `cap` characters with a note naming its full length; itself when shorter. */
export function cutText(text: string, cap: number = REPORT_TEXT_CAP): string {
  return text.length <= cap ? text : noteCut(headOf(text, cap), text.length);
}

/** The report's display rule: cut, masked as the policy says, bidirectional controls shown; cached for repeated names. */
export function makeReportMasker(
  policy: SecretsPolicy = "masked",
  cap: number = REPORT_TEXT_CAP,
): (text: string) => string {
  const mask = (text: string) => (policy === "kept" ? text : maskSecrets(text));
  return cachedText((text) => {
    if (text.length <= cap) return showBidiControls(mask(text));
    return showBidiControls(noteCut(headOf(mask(headOf(text, cap + MASK_LOOKAHEAD)), cap), text.length));
  });
}
