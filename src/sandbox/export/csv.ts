// The export CSV of the sandbox: which columns a request asks for, and the bytes of the file (the
// same for the synchronous answer and an asynchronous job's download).
import { minuteDate } from '../deployed.js';
import { attributionParameter, exportAnswerKeys, exportHeader, isExportColumn } from '../../service/export.js';
import type { Form, Submission } from '../model.js';
import type { Store } from '../store.js';
import { Errors, isObject } from '../validation.js';

const BOM = '\uFEFF';
const ROWS_PER_CHUNK = 500; // the deployed job also works in chunks of 500 (docs/service-details.md, "Export")

export interface ExportColumns {
  /** The columns between `id` and `created_at`, in the order the request listed them: a header, and a submission's cell. */
  cells: ExportCell[];
  /** `created_at` goes last wherever it was listed (docs/service-details.md, "Export"). */
  createdAt: boolean;
  /** A form that takes partial submissions gets a `status` column after everything, asked for or not. */
  status: boolean;
  /** The `id` cell of a submission (the flavour's `exportIdCell`): the number unless told. */
  idCell?: (id: number) => string;
}

interface ExportCell {
  header: string;
  text: (sub: Submission) => string;
}

/**
 * Validates `{columns: {<column>: bool}}` against the columns the service takes (isExportColumn:
 * current and removed property ids, `created_at`, `status`, `meta.attribution.<parameter>`) and
 * picks the cells as the deployed server does (`api/app/Service/Forms/FormExportService.php:55-78`):
 * for each column asked for, in order, an attribution column is that parameter of the submission's
 * attribution (the sandbox records none, so it is empty); any other column is the first answer key
 * that holds the column id (the deployed flavour: `str_contains`, line 64, so a column may pick
 * another field whose name or id contains it, and `status` a field named "Marital status"), or the
 * field of that id (the spec flavour); a key picked twice is one column. `created_at` comes last,
 * then `status` for forms that take partial submissions (lines 71-78).
 * An unknown key is 422: under `columns` in the deployed server's words
 * (`api/app/Http/Requests/FormSubmissionExportRequest.php:36-42`), under `columns.<key>` in the spec flavour.
 */
export function parseColumns(form: Form, body: Record<string, unknown>, o: { substring: boolean }): ExportColumns {
  const errors = new Errors();
  const columns = body.columns;
  if (!isObject(columns) || Object.keys(columns).length === 0) {
    errors.add('columns', 'The columns field is required and must be an object of column ids to true/false.');
    errors.throwIfAny();
  }
  const removed = form.removed_properties ?? [];
  const invalid = Object.keys(columns as Record<string, unknown>).filter((key) => !isExportColumn(key, form.properties, removed));
  if (invalid.length > 0 && o.substring) errors.add('columns', `The columns contain invalid values: ${invalid.join(', ')}`);
  for (const key of invalid) {
    if (!o.substring)
      errors.add(`columns.${key}`, `'${key}' is not a column of this form (use a property id, created_at, status or meta.attribution.<parameter>).`);
  }
  for (const [key, include] of Object.entries(columns as Record<string, unknown>)) {
    if (typeof include !== 'boolean') errors.add(`columns.${key}`, `The columns.${key} field must be true or false.`);
  }
  errors.throwIfAny();
  const keys = exportAnswerKeys(form.properties, form.removed_properties ?? []);
  const out: ExportColumns = { cells: [], createdAt: false, status: form.attrs.enable_partial_submissions === true };
  const picked = new Set<string>();
  for (const [column, include] of Object.entries(columns as Record<string, boolean>)) {
    if (!include) continue;
    if (column === 'created_at') out.createdAt = true;
    const parameter = attributionParameter(column);
    if (parameter !== undefined) {
      out.cells.push({ header: parameter, text: () => '' });
      continue;
    }
    const found = o.substring ? keys.find((k) => k.key.includes(column)) : keys.find((k) => k.property.id === column);
    if (!found || picked.has(found.key)) continue;
    picked.add(found.key);
    const id = found.property.id;
    out.cells.push({ header: exportHeader(found.key), text: (sub) => cellText(sub.data[id]) });
  }
  return out;
}

/**
 * `submissionIds` (optional): the numeric ids to export, as the deployed server takes them. Each must
 * be a submission of this form (`known`): an unknown id, or one of another form, is 422
 * `submissionIds.<i>` "The selected submissionIds.<i> is invalid.", as the deployed server's `exists`
 * rule answers (docs/sandbox.md, "Behaviour the spec leaves open"). Undefined when absent.
 */
export function parseSubmissionIds(body: Record<string, unknown>, known: ReadonlyMap<number, unknown>): Set<number> | undefined {
  const v = body.submissionIds;
  if (v === undefined || v === null) return undefined;
  const errors = new Errors();
  const ids = new Set<number>();
  if (!Array.isArray(v)) errors.add('submissionIds', 'The submission ids field must be an array.');
  else {
    v.forEach((x, i) => {
      const n = typeof x === 'number' ? x : typeof x === 'string' && /^\d{1,15}$/.test(x) ? Number(x) : Number.NaN;
      if (!Number.isSafeInteger(n) || n < 1) errors.add(`submissionIds.${i}`, `The submissionIds.${i} field must be an integer.`);
      else if (!known.has(n)) errors.add(`submissionIds.${i}`, `The selected submissionIds.${i} is invalid.`);
      else ids.add(n);
    });
  }
  errors.throwIfAny();
  return ids;
}

/** `{slug}-submission-data.csv` (docs/service-details.md, "Export"). */
export function csvFilename(form: Form): string {
  return `${form.slug}-submission-data.csv`;
}

/** RFC 4180 quoting: only fields with a comma, quote or line break are quoted. */
function csvField(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** A stored answer as CSV text: lists joined with ", ", objects as JSON, null as empty. */
function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map(cellText).join(', ');
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/**
 * The export CSV in chunks of text: BOM and header first, then rows newest first, 500 at a time.
 * The sync response and the async job both consume this one generator, so their bytes are identical.
 */
export function* csvChunks(store: Store, form: Form, cols: ExportColumns, only?: Set<number>): Generator<{ text: string; rows: number }> {
  const header = ['id', ...cols.cells.map((c) => c.header), ...(cols.createdAt ? ['created_at'] : []), ...(cols.status ? ['status'] : [])];
  yield { text: `${BOM}${header.map(csvField).join(',')}\n`, rows: 0 };
  let subs: Submission[] = [...store.submissionsOf(form.id).values()];
  if (only) subs = subs.filter((s) => only.has(s.id));
  for (let end = subs.length; end > 0; end -= ROWS_PER_CHUNK) {
    let text = '';
    const start = Math.max(0, end - ROWS_PER_CHUNK);
    for (let i = end - 1; i >= start; i--) {
      const sub = subs[i]!;
      const row = [(cols.idCell ?? String)(sub.id)];
      for (const c of cols.cells) row.push(c.text(sub));
      if (cols.createdAt) row.push(minuteDate(sub.created_at));
      if (cols.status) row.push(sub.status === 'partial' ? 'In Progress' : 'Completed');
      text += `${row.map(csvField).join(',')}\n`;
    }
    yield { text, rows: end - start };
  }
}

/** The text of each CSV chunk. */
export function* csvTexts(chunks: Iterable<{ text: string }>): Generator<string> {
  for (const chunk of chunks) yield chunk.text;
}

/** Response headers of a CSV download (sync export and async file alike). */
export function csvHeaders(filename: string): Record<string, string> {
  return { 'Content-Type': 'text/csv', 'Content-Disposition': `attachment; filename="${filename}"` };
}
