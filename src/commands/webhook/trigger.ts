import { Command } from '@commander-js/extra-typings';
import { type Form, getForm } from '../../api/forms.js';
import { ForbiddenError } from '../../api/errors.js';
import { messageOf } from '../../api/normalize.js';
import { CliError } from '../../errors.js';
import { apiPath } from '../../api/path.js';
import type { Factory } from '../../factory.js';
import { profileWords } from '../hint-words.js';
import { findProperty } from '../../forms/properties.js';
import { parseFormRef } from '../../io/ids.js';
import { write } from '../../io/iostreams.js';
import { escapeControls, notice, resolveFormat, success, writeObject } from '../../io/output.js';
import { UnexpectedAnswerError, isObj } from '../../api/normalize.js';
import { resolveFormArg } from '../pickers.js';
import { sampleValue } from '../../webhooks/payload.js';
import { coerceValue, inputProperties } from '../../submissions/fields.js';
import { type FlagsOf, addFormArgument, addOutputOptions, collectKeyValue, examples } from '../shared.js';

/** Fields of `trigger --json` (a contract with scripts). */
export const TRIGGER_FIELDS = ['form_id', 'form_slug', 'submission_id', 'answers', 'message'] as const;

/** `formctl webhook trigger [form]`: the command and its flags, declared once. */
function webhookTriggerCommand() {
  const base = new Command('trigger')
    .description('Answer a form as a visitor would (its public answer route), so its active webhooks deliver for real')
    // `--data field=value` pairs, by field id or name.
    .option('-d, --data <field=value>', 'An answer, by field id or name (repeatable); required fields left out get sample values', collectKeyValue);
  return examples(addOutputOptions(addFormArgument(base), { fields: TRIGGER_FIELDS }), [
    'formctl webhook trigger contact',
    'formctl webhook trigger 1 --data name=Ada --data email=ada@example.com',
    'formctl webhook trigger 1 --data Rating=5 --json submission_id',
  ]);
}

export type WebhookTriggerOptions = FlagsOf<typeof webhookTriggerCommand> &
  Pick<Factory, 'io' | 'api' | 'now'> &
  Partial<Pick<Factory, 'context'>> & {
    form: string;
  };

/** `formctl webhook trigger [form]`. */
export function newWebhookTriggerCommand(f: Factory, runF = webhookTriggerRun) {
  return webhookTriggerCommand().action(async (form, flags) =>
    runF({ ...flags, io: f.io, api: f.api, now: f.now, context: f.context, form: await resolveFormArg(f, form) }),
  );
}

/**
 * The answer body: the given values (typed as each field expects), and a sample value for every
 * required field left out, so the service accepts it. Checked locally first: an unknown field or a
 * value of the wrong type is exit 2, before anything is sent.
 */
export function answerBody(form: Form, data: Array<[string, string]>, now: Date): { body: Record<string, unknown>; filled: string[] } {
  const body: Record<string, unknown> = {};
  for (const [key, raw] of data) {
    const p = findProperty(form, key);
    body[p.id] = coerceValue(p, raw, key);
  }
  const filled: string[] = [];
  for (const p of inputProperties(form)) {
    if (p.required === true && p.hidden !== true && body[p.id] === undefined) {
      body[p.id] = sampleValue(p, now);
      filled.push(String(p.name ?? p.id));
    }
  }
  return { body, filled };
}

/**
 * Reads the form (its slug and fields, with the token), then posts the answer to the public route
 * `POST /forms/{slug}/answer` without the token, as a visitor's browser does: a real submission,
 * so every active integration of the form fires (docs/webhooks-and-members.md, "Private receivers").
 */
export async function webhookTriggerRun(o: WebhookTriggerOptions): Promise<void> {
  const format = resolveFormat(o.io, o);
  const ref = parseFormRef(o.form);
  const client = await o.api();
  const form = await getForm(client, ref);
  const { body, filled } = answerBody(form, o.data ?? [], o.now());
  const slug = typeof form.slug === 'string' && form.slug !== '' ? form.slug : String(form.id);
  let res;
  try {
    res = await client.request<unknown>({ method: 'POST', path: apiPath`/forms/${slug}/answer`, body, anonymous: true });
  } catch (err) {
    // No token is involved: a 403 here is the form refusing answers, whatever a generic hint would guess.
    if (err instanceof ForbiddenError) {
      throw new CliError(
        err.message,
        err.exitCode,
        `The form does not accept answers now (a draft, closed, or at its submission limit): see \`formctl form get ${form.id}\`.`,
      );
    }
    throw err;
  }
  // The service answers a saved submission with a JSON object (PublicFormController.php:186-189); a 200
  // with anything else (a proxy's HTML page, an empty body) is no proof the answer was saved.
  if (!isObj(res.data)) throw new UnexpectedAnswerError(res, 'the JSON answer of a saved submission', res.data);
  const data = res.data;
  const submissionId = data.submission_id ?? null;
  const message = messageOf(res.data, 'Form submission saved.');
  if (format.kind === 'json' || format.kind === 'ndjson') {
    await writeObject(o.io, format, { form_id: form.id, form_slug: slug, submission_id: submissionId, answers: body, message }, []);
  } else if (o.io.stdoutIsTTY) {
    const submission = submissionId !== null ? `: submission ${escapeControls(String(submissionId), { all: true })}` : '';
    await success(o.io, `Answered form ${JSON.stringify(form.title ?? slug)} (id ${form.id})${submission}.`);
  } else if (submissionId !== null) {
    // Piped, like `webhook create`: the new id and nothing else.
    await write(o.io.stdout, `${String(submissionId)}\n`);
  }
  if (filled.length > 0)
    await notice(
      o.io,
      `sample values for the required field${filled.length === 1 ? '' : 's'} not given: ${filled.map((n) => escapeControls(n, { all: true })).join(', ')}.`,
    );
  if (o.io.stderrIsTTY)
    await notice(
      o.io,
      `the form's active webhooks deliver now; see each one's attempts with \`formctl${await profileWords(o.context)} webhook events ${form.id} <id>\`.`,
    );
}
