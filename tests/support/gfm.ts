/**
 * Markdown rendered as GitHub renders a comment: micromark with its GFM extension (tables, autolink
 * literals, strikethrough, task lists, footnotes, the tag filter), raw HTML allowed as GitHub allows it
 * (`<details>`, comments). Tests of the reports assert on this HTML, not on the Markdown's text.
 */
import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";

export function renderGfm(markdown: string): string {
  return micromark(markdown, { extensions: [gfm()], htmlExtensions: [gfmHtml()], allowDangerousHtml: true });
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" };

/** The text a reader sees in an HTML fragment: tags removed, entities decoded. */
export function textOf(html: string): string {
  return html
    .replace(/<[^>]*>/g, "")
    .replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (whole, name: string) =>
      name.startsWith("#x")
        ? String.fromCodePoint(parseInt(name.slice(2), 16))
        : name.startsWith("#") && !(name in ENTITIES)
          ? String.fromCodePoint(Number(name.slice(1)))
          : (ENTITIES[name] ?? whole),
    );
}

/** The body rows of every table in the HTML, each as its cells' inner HTML. */
export function tableRows(html: string): string[][] {
  const bodies = [...html.matchAll(/<tbody>([\s\S]*?)<\/tbody>/g)].map((match) => match[1]);
  return bodies.flatMap((body) =>
    [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) =>
      [...row[1].matchAll(/<td(?: [^>]*)?>([\s\S]*?)<\/td>/g)].map((cell) => cell[1]),
    ),
  );
}
