import { resolve as resolvePath, dirname } from 'node:path';
import { Command } from 'commander';
import type { ApiClient } from '../../api/client.js';
import { resolveForm } from '../../api/forms.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { writeFileAtomic } from '../../forms/backups.js';
import { documentText, toDocument } from '../../forms/document.js';
import { type IOStreams, write } from '../../io/iostreams.js';
import { success } from '../../io/output.js';
import { resolveFormArg } from '../../io/pickers.js';
import { addFormArgument, examples } from '../shared.js';
import { formLabel } from './common.js';

export interface FormPullOptions {
  io: IOStreams;
  api: () => Promise<ApiClient>;
  ref: string;
  out?: string;
}

/** `formctl form pull <id|slug>`. */
export function newFormPullCommand(f: Factory, runF = formPullRun): Command {
  const cmd = new Command('pull')
    .description('Save a form as a stable JSON document for version control (see `form apply`)')
    .option('-o, --output <file>', 'Write to this file instead of stdout');
  addFormArgument(cmd);
  examples(cmd, ['formctl form pull 42 -o forms/contact.json', 'formctl form pull contact-us | jq .properties']);
  return cmd.action(async (ref: string | undefined, flags: { output?: string }) => runF({ io: f.io, api: f.api, ref: await resolveFormArg(f, ref), out: flags.output }));
}

/**
 * Writes the form without server-computed keys (counts, share_url, timestamps), keys in a fixed order,
 * so pulling an unchanged form twice gives identical bytes. The file is written atomically, mode 0600
 * because a form document may hold the form's password.
 */
export async function formPullRun(o: FormPullOptions): Promise<void> {
  const form = await resolveForm(await o.api(), o.ref);
  const text = documentText(toDocument(form));
  if (o.out === undefined || o.out === '-') {
    await write(o.io.stdout, text);
    return;
  }
  const path = resolvePath(o.out);
  try {
    await writeFileAtomic(path, text, dirname(path));
  } catch (err) {
    throw new UsageError(`Cannot write ${o.out}: ${(err as Error).message}`);
  }
  await success(o.io, `Saved form ${formLabel(form)} to ${o.out}`);
}
