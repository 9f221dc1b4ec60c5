import { Command } from '@commander-js/extra-typings';
import { type FormSummary, listWorkspaceForms } from '../../api/forms.js';
import { hasMorePages } from '../../api/paginate.js';
import { UsageError } from '../../errors.js';
import type { Factory } from '../../factory.js';
import { profileWords } from '../hint-words.js';
import { notice, resolveFormat, writeList } from '../../io/output.js';
import { VISIBILITIES } from '../../forms/document.js';
import { DEFAULT_LIST_LIMIT, listLimit, moreNote, parsePositiveInt } from '../../io/limit.js';
import { type FlagsOf, addLimitOptions, addOutputOptions, addWorkspaceOption, choiceOption, examples } from '../shared.js';
import { FORM_SUMMARY_COLUMNS, FORM_SUMMARY_FIELDS } from './shared.js';
import { MAX_PER_PAGE } from '../../service/limits.js';

/** `formctl form list`: the command and its flags, declared once. */
function formListCommand() {
  const base = addLimitOptions(new Command('list').alias('ls').description("List a workspace's forms"), 'forms')
    .option('--page <n>', `Fetch only this page (page size: --limit, default ${DEFAULT_LIST_LIMIT})`, parsePositiveInt('--page'))
    .addOption(choiceOption('--visibility <v>', 'Only forms with this visibility', VISIBILITIES))
    .option('--tag <tag>', 'Only forms with this tag');
  return examples(addOutputOptions(addWorkspaceOption(base), { list: true, fields: FORM_SUMMARY_FIELDS }), [
    'formctl form list',
    'formctl form list -w 3 --all --visibility public',
    'formctl form list --json id,title,submissions_count | jq -r \'.[] | "\\(.id)\\t\\(.title)"\'',
  ]);
}

export type FormListOptions = FlagsOf<typeof formListCommand> &
  Pick<Factory, 'io' | 'api' | 'now'> &
  Partial<Pick<Factory, 'context'>> & {
    /** The workspace to list: `workspace` (the -w value), else the environment's or the profile's. */
    resolveWorkspace: (flag?: number) => Promise<number>;
  };

/** `formctl form list`. */
export function newFormListCommand(f: Factory, runF = formListRun) {
  return formListCommand().action((flags) => runF({ ...flags, io: f.io, api: f.api, resolveWorkspace: f.workspace, now: f.now, context: f.context }));
}

/**
 * Lists form summaries page by page. Visibility and tag are filtered here because the service's list
 * takes no such parameters; `--limit` counts matching forms and stops fetching once it has enough.
 */
export async function formListRun(o: FormListOptions): Promise<void> {
  const format = resolveFormat(o.io, o);
  // The one list rule (io/limit.ts): programs get every form unless they ask for fewer, people a screenful.
  const listed = listLimit(format, o);
  if (o.all && o.page !== undefined) throw new UsageError('Use either --all or --page, not both.');
  // A page is --limit forms long (default 30) for programs too: --page alone must not mean every form.
  const limit = o.page !== undefined ? (o.limit ?? DEFAULT_LIST_LIMIT) : listed;
  const workspaceId = await o.resolveWorkspace(o.workspace);
  const client = await o.api();
  const filtered = o.visibility !== undefined || o.tag !== undefined;
  // One page of `limit` items is enough when nothing is filtered out; otherwise take the largest pages.
  const perPage = o.page !== undefined ? Math.min(limit!, MAX_PER_PAGE) : filtered || limit === undefined ? MAX_PER_PAGE : Math.min(limit, MAX_PER_PAGE);
  const matches = (s: FormSummary) =>
    (o.visibility === undefined || s.visibility === o.visibility) && (o.tag === undefined || (Array.isArray(s.tags) && s.tags.includes(o.tag)));

  let cut = false;
  // With --page: where the fetched page sits in the whole list, for the note.
  let pageInfo: { first: number; last: number; total?: number } | undefined;
  async function* rows(): AsyncGenerator<FormSummary> {
    let shown = 0;
    // The service lists forms newest update first and pages by offset (OpnForm
    // api/app/Http/Controllers/Forms/FormController.php:68-69): a form updated while the pages are
    // read jumps to page 1, so a later page repeats the form before it and the updated one is never
    // met. Each form is given once (by id); when the reading ends with fewer forms than the total,
    // the list is read again from page 1, at most REREADS times, for those it missed.
    const seen = new Set<number>();
    let total: number | undefined;
    for (let pass = 0; ; pass++) {
      const pages = listWorkspaceForms(client, workspaceId, { page: pass === 0 ? o.page : 1, perPage, all: o.page === undefined });
      for await (const page of pages) {
        if (o.page !== undefined) {
          const first = ((page.info?.currentPage ?? o.page) - 1) * (page.info?.perPage ?? perPage) + 1;
          pageInfo = { first, last: first + page.items.length - 1, total: page.info?.total };
        }
        if (page.info?.total !== undefined) total = page.info.total;
        const fresh = page.items.filter((f) => {
          if (typeof f.id !== 'number') return true;
          if (seen.has(f.id)) return false;
          seen.add(f.id);
          return true;
        });
        const wanted = fresh.filter(matches);
        for (let i = 0; i < wanted.length; i++) {
          if (limit !== undefined && shown >= limit) {
            cut = true;
            return;
          }
          shown++;
          yield wanted[i]!;
        }
        if ((limit !== undefined && shown >= limit) || o.page !== undefined) {
          cut = page.truncated || hasMorePages(page.info, page.items.length);
          return;
        }
        if (pass > 0 && total !== undefined && seen.size >= total) return;
      }
      if (total === undefined || seen.size >= total || pass >= REREADS) return;
    }
  }

  const count = await writeList(o.io, format, rows(), FORM_SUMMARY_COLUMNS, {
    now: o.now(),
    loading: 'Loading forms…',
    empty: filtered
      ? 'No forms match.'
      : `No forms in workspace ${workspaceId}. Create one with \`formctl${await profileWords(o.context)} form create -w ${workspaceId} --title <title>\`.`,
  });
  if (cut)
    await notice(o.io, o.page === undefined || pageInfo === undefined ? moreNote(count, 'forms', filtered) : pageNote(count, filtered, o.page, pageInfo));
}

/** How many times `form list` reads the list again for forms an update moved past the pages read. */
const REREADS = 2;

/** The note of a cut --page: which part of the whole list the page is (a list without --page says "showing the first N", moreNote). */
function pageNote(count: number, filtered: boolean, page: number, info: { first: number; last: number; total?: number }): string {
  const forms = (n: number) => `${n} form${n === 1 ? '' : 's'}`;
  const match = count === 1 ? 'that matches' : 'that match';
  const of = info.total !== undefined ? ` of ${info.total}` : '';
  const range = info.first === info.last ? `form ${info.first}${of}` : `forms ${info.first}–${info.last}${of}`;
  const shown = filtered ? `${forms(count)} ${match} among ${range}` : range;
  return `showing ${shown}; pass --page ${page + 1} for the next page, or --all for every form.`;
}
