const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A bare page: a title, lines of text, and one button (an empty-bodied POST form) per action. */
export function page(title: string, lines: string[], actions: Array<[string, string]>): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${esc(title)}</title></head><body>
<h1>${esc(title)}</h1><p><em>Mock payment provider: nothing is charged.</em></p>
${lines.map((l) => `<p>${esc(l)}</p>`).join('\n')}
${actions.map(([href, label]) => `<form method="post" action="${esc(href)}"><button type="submit">${esc(label)}</button></form>`).join('\n')}
</body></html>`;
}
