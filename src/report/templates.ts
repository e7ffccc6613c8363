import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import Handlebars from "handlebars";
import { packageRoot } from "./runtime";

export interface ReportTemplates {
  index: Handlebars.TemplateDelegate;
  session: Handlebars.TemplateDelegate;
  sessionsIndex: Handlebars.TemplateDelegate;
  /** The page style (partials/style.hbs) as a file, for the session pages to share. */
  stylesheet: string;
}

/**
 * Compiles `templates/{index,session,sessions-index}.hbs` with the layout and
 * every file of `templates/partials/` as partials, in an isolated Handlebars
 * instance. `strict` makes a misspelt field an error instead of empty text.
 */
export function loadTemplates(dir: string = join(packageRoot(), "templates")): ReportTemplates {
  const hb = Handlebars.create();
  hb.registerHelper("eq", (a: unknown, b: unknown) => a === b);
  hb.registerHelper("gt", (a: unknown, b: unknown) => Number(a) > Number(b));
  hb.registerPartial("layout", readFileSync(join(dir, "layout.hbs"), "utf8"));
  for (const file of readdirSync(join(dir, "partials")).sort()) {
    if (file.endsWith(".hbs"))
      hb.registerPartial(basename(file, ".hbs"), readFileSync(join(dir, "partials", file), "utf8"));
  }
  const compile = (name: string) =>
    hb.compile(readFileSync(join(dir, `${name}.hbs`), "utf8"), { strict: false, preventIndent: true });
  // The session pages' own rules (the blame view) follow the shared style in their style.css.
  const stylesheet =
    readFileSync(join(dir, "partials", "style.hbs"), "utf8") +
    readFileSync(join(dir, "partials", "session-style.hbs"), "utf8");
  return { index: compile("index"), session: compile("session"), sessionsIndex: compile("sessions-index"), stylesheet };
}

/** Text Handlebars prints as is: only for code and JSON already made safe by ./escape.ts. */
export const trusted = (text: string): Handlebars.SafeString => new Handlebars.SafeString(text);
