import type { RouteTable } from '../context.js';
import { notFound } from '../errors.js';
import { isLayoutBlock } from '../../service/forms.js';
import { findForm } from './common.js';

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * `share_url` target: a plain page naming the form's fields and how to answer it, so the link in
 * every form object leads somewhere. Each view counts in `views_count`, as a real form page would.
 */
export function registerSharePage(r: RouteTable): void {
  r.open('GET', '/forms/:form', ({ app, params }) => {
    const form = findForm(app, params.form);
    if (form.attrs.visibility === 'draft') throw notFound('Form not found.');
    form.views_count += 1;
    app.store.changed();
    const fields = form.properties.filter((p) => !isLayoutBlock(p));
    const example = JSON.stringify(Object.fromEntries(fields.map((p) => [p.id, '…'])));
    const html = `<!doctype html>
<html lang="${escapeHtml(String(form.attrs.language))}"><head><meta charset="utf-8"><title>${escapeHtml(String(form.attrs.title))}</title></head>
<body>
<h1>${escapeHtml(String(form.attrs.title))}</h1>
<p>formctl sandbox form <code>${escapeHtml(form.slug)}</code> (${escapeHtml(String(form.attrs.visibility))}).</p>
<ul>
${fields.map((p) => `<li><code>${escapeHtml(p.id)}</code> ${escapeHtml(p.name)} (${escapeHtml(p.type)})${p.required ? ' — required' : ''}</li>`).join('\n')}
</ul>
<p>Answer it with:</p>
<pre>curl -X POST ${escapeHtml(`${app.baseUrl}/forms/${form.slug}/answer`)} -H 'Content-Type: application/json' -d '${escapeHtml(example)}'</pre>
</body></html>
`;
    return { status: 200, raw: html, headers: { 'Content-Type': 'text/html; charset=utf-8' } };
  });
}
