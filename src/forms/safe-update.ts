import type { ApiClient } from '../api/client.js';
import { type Form, getForm, putForm } from '../api/forms.js';
import { CancelledError, ConflictError } from '../errors.js';
import { writeBackup } from './backups.js';
import { formDiff } from './diff.js';
import { documentText, toUpdateBody } from './document.js';
import { mergePatch } from './merge.js';
import { assertPropertiesKept, assertValidForm } from './validate.js';

type Obj = Record<string, unknown>;

export interface SafeUpdateInput {
  client: ApiClient;
  /** The form as just fetched: every field the change does not mention comes from here. */
  current: Form;
  /** A patch or a whole document; merged over `current` (objects key by key, lists replaced). */
  change: Obj;
  validate: boolean;
  dryRun: boolean;
  /** Skip the re-read that detects a concurrent change. */
  force: boolean;
  /** Directory for this form's backups. */
  backupDir: string;
  now: () => Date;
  color?: boolean;
  /** Called with the diff before anything is written; false cancels (exit 3). */
  confirm?: (diff: string) => Promise<boolean>;
}

export interface SafeUpdateResult {
  outcome: 'unchanged' | 'dry-run' | 'updated';
  /** Unified diff of what is (or would be) sent; '' when unchanged. */
  diff: string;
  /** The form after the update, or the current form when nothing was sent. */
  form: Form;
  backup?: string;
  /** Top-level keys that were sent but are absent from the service's answer (it does not store them). */
  ignored?: string[];
  /** Ids of the fields the change removes (a `properties` list in a patch replaces the whole list). */
  removedFields: string[];
}

/**
 * The only way formctl changes a form (ARCHITECTURE "Data safety rules"): merge the change into the
 * current form, refuse an empty field list, validate, diff, back up, check nobody changed the form
 * meanwhile, then PUT the complete body. Nothing is sent when there is no difference.
 */
export async function safeUpdate(o: SafeUpdateInput): Promise<SafeUpdateResult> {
  const before = toUpdateBody(o.current);
  const body = toUpdateBody(mergePatch(o.current, o.change));
  assertPropertiesKept(body);
  if (o.validate) assertValidForm(body, 'update');

  const diff = await formDiff(before, body, { from: `form ${o.current.id} (current)`, to: `form ${o.current.id} (new)`, color: o.color });
  const removedFields = fieldIds(before).filter((id) => !fieldIds(body).includes(id));
  if (diff === '') return { outcome: 'unchanged', diff, form: o.current, removedFields };
  if (o.dryRun) return { outcome: 'dry-run', diff, form: o.current, removedFields };
  if (o.confirm && !(await o.confirm(diff))) throw new CancelledError('Cancelled; nothing was sent.');

  const backup = await writeBackup(o.backupDir, o.current, o.now());

  if (!o.force) {
    const latest = await getForm(o.client, o.current.id);
    // updated_at has one-second resolution on the deployed server, so the content is compared too.
    if (latest.updated_at !== o.current.updated_at || documentText(toUpdateBody(latest)) !== documentText(before)) {
      throw new ConflictError(
        `Form ${o.current.id} changed since it was read (updated_at ${o.current.updated_at ?? '?'} → ${latest.updated_at ?? '?'}); nothing was sent.`,
        'Run the command again to apply your change on top of the new version, or pass --force to overwrite it.',
      );
    }
  }

  const form = await putForm(o.client, o.current.id, body);
  const ignored = Object.keys(body).filter((k) => form && typeof form === 'object' && !(k in form) && body[k] !== null);
  return { outcome: 'updated', diff, form, backup, ignored, removedFields };
}

function fieldIds(form: Obj): string[] {
  const props = Array.isArray(form.properties) ? (form.properties as Obj[]) : [];
  return props.map((p) => (p && typeof p.id === 'string' ? p.id : '')).filter(Boolean);
}
