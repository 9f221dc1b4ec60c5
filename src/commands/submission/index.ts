import { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import { newSubmissionDeleteCommand } from './delete.js';
import { newSubmissionExportStatusCommand } from './export-status.js';
import { newSubmissionExportCommand } from './export.js';
import { newSubmissionGetCommand } from './get.js';
import { newSubmissionListCommand } from './list.js';
import { newSubmissionUpdateCommand } from './update.js';
import { examples } from '../shared.js';

/** `formctl submission …`. */
export default function newSubmissionCommand(f: Factory) {
  const cmd = new Command('submission')
    .description('List, show, update, bulk-update, delete and export submissions')
    .addCommand(newSubmissionListCommand(f))
    .addCommand(newSubmissionGetCommand(f))
    .addCommand(newSubmissionUpdateCommand(f))
    .addCommand(newSubmissionDeleteCommand(f))
    .addCommand(newSubmissionExportCommand(f))
    .addCommand(newSubmissionExportStatusCommand(f));
  return examples(cmd, [
    'formctl submission list contact-us',
    'formctl submission update 42 118 --set Email=ada@example.com',
    'formctl submission export 42 -o answers.csv',
    'formctl submission list 42 --ndjson | jq -c .data',
  ]);
}
