import { readFile, stat } from 'node:fs/promises';
import { resolve as resolvePath, dirname } from 'node:path';
import { Command } from '@commander-js/extra-typings';
import { type Form, resolveForm } from '../../api/forms.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { writeFileAtomic } from '../../atomic-file.js';
import { documentText, isObject, toDocument } from '../../forms/document.js';
import { SECRET_KEYS, withoutSecrets } from '../../forms/secrets.js';
import { cannotWrite, stripBom } from '../../io/files.js';
import { write } from '../../io/iostreams.js';
import { notice, success } from '../../io/output.js';
import { resolveFormArg } from '../pickers.js';
import { addFormArgument, examples, fileOption, type FlagsOf } from '../shared.js';
import { formLabel } from '../../forms/label.js';

/** `formctl form pull [form]`: the command and its flags, declared once. */
function formPullCommand() {
  const base = new Command('pull')
    .description('Save a form as a stable JSON document for version control (see `form apply`)')
    .addOption(fileOption('-o, --output <file>', 'Write to this file instead of stdout (refused if it holds another form or is not a form document)'))
    .option('--force', 'Overwrite the --output file whatever it holds')
    // Keeps the secret attributes (the form password) in the document.
    .option('--include-secrets', `Keep secret attributes (${SECRET_KEYS.join(', ')}) in the document; left out by default`);
  return examples(addFormArgument(base), ['formctl form pull 42 -o forms/contact.json', 'formctl form pull contact-us | jq .properties']);
}

export type FormPullOptions = FlagsOf<typeof formPullCommand> &
  Pick<Factory, 'io' | 'api'> & {
    /** The form's id or slug (the resolved [form] argument). */
    form: string;
  };

/** `formctl form pull <id|slug>`. */
export function newFormPullCommand(f: Factory, runF = formPullRun) {
  return formPullCommand().action(async (form, flags) => runF({ ...flags, io: f.io, api: f.api, form: await resolveFormArg(f, form) }));
}

/**
 * Writes the form without server-computed keys (counts, share_url, timestamps), keys in a fixed order,
 * so pulling an unchanged form twice gives identical bytes. Secret attributes are left out unless
 * asked for (the document is meant for git; `apply` keeps a secret the file omits). The file is
 * written atomically, mode 0600, since with --include-secrets it holds the form's password.
 */
export async function formPullRun(o: FormPullOptions): Promise<void> {
  // A file that cannot be written is refused before the form is fetched.
  if (o.output !== undefined && o.output !== '-') await assertWritableDir(o.output);
  const form = await resolveForm(await o.api(), o.form);
  const { doc, left } = o.includeSecrets ? { doc: form as Record<string, unknown>, left: [] } : withoutSecrets(form);
  const text = documentText(toDocument(doc));
  const leftNote = left.length
    ? () =>
        notice(
          o.io,
          `left ${left.map((k) => `"${k}"`).join(', ')} out of the document (a secret); \`form apply\` keeps the form's value. Pass --include-secrets to keep it.`,
        )
    : async () => undefined;
  if (o.output === undefined || o.output === '-') {
    await write(o.io.stdout, text);
    await leftNote();
    return;
  }
  const path = resolvePath(o.output);
  const problem = o.force ? undefined : await overwriteProblem(path, form);
  if (problem) {
    throw new UsageError(`${o.output} ${problem}; nothing was written.`, 'Pass --force to overwrite it, or choose another file with -o.');
  }
  try {
    await writeFileAtomic(path, text);
  } catch (err) {
    throw cannotWrite(o.output, err);
  }
  await leftNote();
  await success(o.io, `Saved form ${formLabel(form)} to ${o.output}`);
}

/**
 * Why writing over `path` would lose other work, or undefined when it is safe: no file, an empty one,
 * or this form's own document (same id; same slug when the file has no id), which pull is for refreshing.
 * A slug differs for the same id only when the file came from another profile or service.
 */
async function overwriteProblem(path: string, form: Form): Promise<string | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    // Missing: nothing to lose. Unreadable or a directory: the write below says why it fails.
    return undefined;
  }
  if (text.trim() === '') return undefined;
  let doc: unknown;
  try {
    doc = JSON.parse(stripBom(text));
  } catch {
    return 'exists and is not a form document (not JSON)';
  }
  if (!isObject(doc) || !(Array.isArray(doc.properties) || typeof doc.title === 'string')) return 'exists and is not a form document';
  const slug = typeof doc.slug === 'string' && doc.slug !== '' ? doc.slug : undefined;
  const title = typeof doc.title === 'string' ? `"${doc.title}" ` : '';
  if (doc.id !== undefined && doc.id !== null) {
    const other = `holds form ${title}(id ${String(doc.id)}`;
    if (Number(doc.id) !== form.id) return `${other}), not form ${formLabel(form)}`;
    if (slug !== undefined && slug !== form.slug)
      return `${other}, slug "${slug}"), not form "${form.title}" (id ${form.id}, slug "${form.slug}"): a form of another profile or service`;
    return undefined;
  }
  if (slug !== undefined && slug === form.slug) return undefined;
  return `holds form ${title}(no id${slug !== undefined ? `, slug "${slug}"` : ''}), not form ${formLabel(form)}`;
}

/** The directory `file` would be written to exists and is a directory; else `Cannot write FILE: …` (exit 2). */
async function assertWritableDir(file: string): Promise<void> {
  const dir = dirname(resolvePath(file));
  let st;
  try {
    st = await stat(dir);
  } catch (err) {
    throw cannotWrite(file, err);
  }
  if (!st.isDirectory()) throw cannotWrite(file, Object.assign(new Error('not a directory'), { code: 'ENOTDIR' }));
}
