// The export CSV of the sandbox: which columns a request asks for, and the bytes of the file (the
// same for the synchronous answer and an asynchronous job's download).
import { minuteDate } from '../deployed.js';
import { isLayoutBlock } from '../../service/forms.js';
import type { Form, FormProperty, Submission } from '../model.js';
import type { Store } from '../store.js';
import { Errors, isObject } from '../validation.js';

const BOM = '\uFEFF';
const ROWS_PER_CHUNK = 500; // the deployed job also works in chunks of 500 (docs/service-details.md, "Export")

export interface ExportColumns {
  /** Property columns in the order the request listed them. */
  properties: FormProperty[];
  /** `created_at` goes last wherever it was listed (docs/service-details.md, "Export"). */
  createdAt: boolean;
  /** The `id` cell of a submission (the flavour's `exportIdCell`): the number unless told. */
  idCell?: (id: number) => string;
}

/** Validates `{columns: {propId|created_at: bool}}`; unknown keys are 422 under `columns.<key>`. */
export function parseColumns(form: Form, body: Record<string, unknown>): ExportColumns {
  const errors = new Errors();
  const columns = body.columns;
  if (!isObject(columns) || Object.keys(columns).length === 0) {
    errors.add('columns', 'The columns field is required and must be an object of column ids to true/false.');
    errors.throwIfAny();
  }
  const byId = new Map(form.properties.map((p) => [p.id, p]));
  const out: ExportColumns = { properties: [], createdAt: false };
  for (const [key, include] of Object.entries(columns as Record<string, unknown>)) {
    const p = byId.get(key);
    if (typeof include !== 'boolean') errors.add(`columns.${key}`, `The columns.${key} field must be true or false.`);
    else if (key !== 'created_at' && !p) errors.add(`columns.${key}`, `'${key}' is not a property of this form (use a property id or created_at).`);
    else if (!include) continue;
    else if (key === 'created_at') out.createdAt = true;
    else if (p && !isLayoutBlock(p)) out.properties.push(p);
  }
  errors.throwIfAny();
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

/**
 * Header text of a property column. The deployed server keys columns as "{name} ({id})" and strips
 * with the greedy /\s\(.*\)/ (docs/service-details.md, "Export"), so a name like "Age (years)" is exported as "Age".
 */
function headerOf(p: FormProperty): string {
  return `${p.name} (${p.id})`.replace(/\s\(.*\)/, '');
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
  const header = ['id', ...cols.properties.map(headerOf), ...(cols.createdAt ? ['created_at'] : [])];
  yield { text: `${BOM}${header.map(csvField).join(',')}\n`, rows: 0 };
  let subs: Submission[] = [...store.submissionsOf(form.id).values()];
  if (only) subs = subs.filter((s) => only.has(s.id));
  for (let end = subs.length; end > 0; end -= ROWS_PER_CHUNK) {
    let text = '';
    const start = Math.max(0, end - ROWS_PER_CHUNK);
    for (let i = end - 1; i >= start; i--) {
      const sub = subs[i]!;
      const row = [(cols.idCell ?? String)(sub.id)];
      for (const p of cols.properties) row.push(cellText(sub.data[p.id]));
      if (cols.createdAt) row.push(minuteDate(sub.created_at));
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
