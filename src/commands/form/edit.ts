import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from '@commander-js/extra-typings';
import { resolveForm } from '../../api/forms.js';
import { CancelledError, CliError, UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { profileWords } from '../hint-words.js';
import { parseFormJson } from '../../forms/backups.js';
import { documentText, toDocument } from '../../forms/document.js';
import { droppedFieldAttributes, warnDroppedAttributes } from '../../forms/dropped-attributes.js';
import type { FormLocker } from '../../forms/lock.js';
import { safeUpdate, safeUpdateSettings } from '../../forms/safe-update.js';
import { MASK, SECRET_KEYS, maskedCopy, unmaskedEdit } from '../../forms/secrets.js';
import { write } from '../../io/iostreams.js';
import { resolveFormArg } from '../pickers.js';
import { type FlagsOf, addFormArgument, addYesOption, examples } from '../shared.js';
import { addSafeUpdateOptions, backupDirFor, formLockFor } from './shared.js';
import { reportSafeUpdate } from './update.js';
import { spawn } from 'node:child_process';

/** Opens a file in the user's editor and resolves when it exits. */
export type EditorRunner = (file: string) => Promise<void>;

/** `formctl form edit [form]`: the command and its flags, declared once. */
function formEditCommand() {
  const base = new Command('edit').description('Edit a form as JSON in $VISUAL / $EDITOR, review the diff, then update it safely');
  return examples(addYesOption(addSafeUpdateOptions(addFormArgument(base))), [
    'formctl form edit 42',
    'EDITOR="code --wait" formctl form edit contact-us',
    'formctl form edit 42 --dry-run   # only show what would change',
  ]);
}

export type FormEditOptions = FlagsOf<typeof formEditCommand> &
  Pick<Factory, 'io' | 'api' | 'prompter' | 'now'> & {
    backupDir: (formId: number) => Promise<string>;
    editor: EditorRunner;
    /** True when $VISUAL or $EDITOR names an editor; the fallback, vi, needs a terminal. */
    editorSet: boolean;
    /** The form's id or slug (the resolved [form] argument). */
    form: string;
    /** The per-form lock (src/forms/lock.ts), taken after the confirmation. */
    lock?: FormLocker;
    /** The resolved context, for the profile a printed command names. */
    context?: Factory['context'];
  };

/** `formctl form edit <id|slug>`. */
export function newFormEditCommand(f: Factory, runF = formEditRun) {
  return formEditCommand().action(async (form, flags) =>
    runF({
      ...flags,
      io: f.io,
      api: f.api,
      backupDir: (id) => backupDirFor(f, id),
      lock: formLockFor(f),
      context: f.context,
      prompter: f.prompter,
      editor: systemEditor(f.env),
      editorSet: Boolean(f.env.VISUAL || f.env.EDITOR),
      now: f.now,
      form: await resolveFormArg(f, form),
    }),
  );
}

/** `$VISUAL`, else `$EDITOR`, else vi; run through the shell because both may carry arguments (`code --wait`). */
export function systemEditor(env: NodeJS.ProcessEnv): EditorRunner {
  const command = env.VISUAL || env.EDITOR || 'vi';
  return async (file) => {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(`${command} ${JSON.stringify(file)}`, { shell: true, stdio: 'inherit', env });
      child.on('error', (err) => reject(new UsageError(`Cannot start the editor "${command}": ${err.message}.`, 'Set $VISUAL or $EDITOR.')));
      child.on('exit', (code, signal) => {
        if (code === 0) resolve();
        else reject(new CliError(`The editor "${command}" exited with ${signal ?? `code ${code}`}; nothing was sent.`, 1));
      });
    });
  };
}

const HEADER = [
  '// Edit the form below and save to update it; the diff is shown before anything is sent.',
  '// Lines starting with // at the top are ignored. Save an empty file to cancel.',
  '// Server-computed fields (counts, share_url, timestamps) are left out; fields you delete keep their value.',
];

/** Said when the form's password is shown as the mask (docs/forms.md, "Secrets"). */
const SECRET_HEADER = `// "password": "${MASK}" stands for the current password, which is kept: write a new one to change it, or null to remove it.`;

/** Drops the leading `//` lines formctl put there; comments are not JSON. */
function stripHeader(text: string): string {
  const lines = text.split('\n');
  let i = 0;
  while (i < lines.length && /^\s*\/\//.test(lines[i]!)) i++;
  return lines.slice(i).join('\n');
}

/** The one line when the update could not be confirmed: said before the editor opens, not after the edit. */
const NO_CONFIRM = 'form edit asks before updating, and prompts are off.';
const NO_CONFIRM_HINT = 'Pass --yes to update after the diff, or --dry-run to only see it (prompts are off: not a terminal, CI, or --no-input).';

/**
 * Refuses before the form is fetched or the editor opened when the edit could not end well: nobody
 * could confirm it (the user would edit, then be refused), or vi would be started on a pipe.
 */
function assertCanEdit(o: FormEditOptions): void {
  if (!o.io.canPrompt && !o.yes && !o.dryRun) throw new UsageError(NO_CONFIRM, NO_CONFIRM_HINT);
  if ((!o.io.stdinIsTTY || !o.io.stdoutIsTTY) && !o.editorSet) {
    throw new UsageError(
      'form edit needs an editor: $VISUAL and $EDITOR are unset, and vi needs a terminal.',
      'Set EDITOR (e.g. EDITOR="code --wait"), or change the form with `formctl form update` or `formctl form pull` + `formctl form apply`.',
    );
  }
}

/**
 * Loops editor → parse → local checks until the document is usable: a mistake reopens the editor
 * with the error noted at the top (nothing is sent), saving it unchanged again gives up (exit 2).
 * Then the diff is confirmed and the safe update runs, which re-checks for concurrent changes:
 * the editor may have been open for a while.
 */
export async function formEditRun(o: FormEditOptions): Promise<void> {
  assertCanEdit(o);
  const client = await o.api();
  const current = await resolveForm(client, o.form);
  // The password is not written to disk: the file shows the mask, and a mask left as it is keeps it.
  const shown = maskedCopy(toDocument(current));
  const original = documentText(shown);
  const head = SECRET_KEYS.some((k) => shown[k] === MASK) ? [...HEADER, SECRET_HEADER] : HEADER;
  const dir = await mkdtemp(join(tmpdir(), 'formctl-edit-'));
  const file = join(dir, `form-${current.id}.json`);
  // The user's last edit, once there is one: if the update then fails (a concurrent change, a 422, a
  // dropped connection), it is kept on disk instead of being deleted with the temporary directory.
  let edit: string | undefined;
  let kept = false;
  try {
    let body = original;
    let problem: string | undefined;
    let lastRejected: string | undefined;
    for (;;) {
      const header = problem ? [...head, '//', ...problem.split('\n').map((l) => `// ERROR: ${l}`)] : head;
      await writeFile(file, `${header.join('\n')}\n${body}`, { mode: 0o600 });
      await o.editor(file);
      const edited = stripHeader(await readFile(file, 'utf8'));
      if (edited.trim() === '') throw new UsageError('The file was saved empty: edit cancelled, nothing was sent.');
      edit = edited;
      if (edited === original) {
        await write(o.io.stderr, 'No changes; nothing was sent.\n');
        return;
      }
      if (problem !== undefined && edited === lastRejected) {
        throw new UsageError(
          `${problem.split('\n')[0]} (saved again without a fix; nothing was sent)`,
          `Run \`formctl form edit ${current.id}\` to start over.`,
        );
      }
      try {
        const doc = unmaskedEdit(parseFormJson(edited, 'The edited form'), current);
        // Attributes a kept field leaves out are erased (docs/forms.md, "Attributes a field leaves
        // out"): named as update and apply name them, after the diff; here the question on the diff
        // (or --yes) is what confirms them.
        const dropped = droppedFieldAttributes(current, doc);
        // safeUpdate checks the document before anything else (a UsageError reopens the editor).
        const result = await safeUpdate({
          ...safeUpdateSettings(o.io, o),
          client,
          current,
          change: doc,
          backupDir: await o.backupDir(current.id),
          // Taken once confirmed: the editor and the question may take minutes.
          lock: o.lock ? () => o.lock!(current.id) : undefined,
          confirm: async (diff) => {
            await write(o.io.stdout, diff);
            await warnDroppedAttributes(o.io, current.id, dropped, o.yes ? 'yes' : 'ask', `formctl${await profileWords(o.context)}`);
            if (o.yes) return true;
            // Unreachable after assertCanEdit; kept so a refusal can never reopen the editor below.
            if (!o.io.canPrompt) throw new UsageError(NO_CONFIRM, NO_CONFIRM_HINT);
            return o.prompter().confirm({ message: `Update form ${current.id} with these changes?`, flag: '--yes', default: true });
          },
        });
        if (result.outcome === 'dry-run') await warnDroppedAttributes(o.io, current.id, dropped, 'dry-run', `formctl${await profileWords(o.context)}`);
        await reportSafeUpdate(o.io, {}, result, { formctl: `formctl${await profileWords(o.context)}` });
        return;
      } catch (err) {
        if (!(err instanceof UsageError) || err.message === NO_CONFIRM) throw err;
        problem = err.message;
        lastRejected = edited;
        body = edited;
        await write(o.io.stderr, `error: ${err.message.split('\n')[0]} Reopening the editor…\n`);
      }
    }
  } catch (err) {
    if (edit === undefined || edit === original || err instanceof CancelledError) throw err;
    await writeFile(file, edit, { mode: 0o600 });
    kept = true;
    const note = `Your edited form is kept in ${file}.`;
    if (err instanceof CliError) throw new CliError(err.message, err.exitCode, err.hint ? `${err.hint}\n${note}` : note);
    await write(o.io.stderr, `${note}\n`);
    throw err;
  } finally {
    if (!kept) await rm(dir, { recursive: true, force: true });
  }
}
