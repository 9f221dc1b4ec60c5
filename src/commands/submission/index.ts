import { Command } from 'commander';
import type { Factory } from '../../factory.js';
import { newSubmissionDeleteCommand } from './delete.js';
import { newSubmissionExportStatusCommand } from './export-status.js';
import { newSubmissionExportCommand } from './export.js';
import { newSubmissionListCommand } from './list.js';
import { newSubmissionUpdateCommand } from './update.js';

/** `formctl submission …`. */
export default function newSubmissionCommand(f: Factory): Command {
  return new Command('submission')
    .description('List, update, bulk-update, delete and export submissions')
    .addCommand(newSubmissionListCommand(f))
    .addCommand(newSubmissionUpdateCommand(f))
    .addCommand(newSubmissionDeleteCommand(f))
    .addCommand(newSubmissionExportCommand(f))
    .addCommand(newSubmissionExportStatusCommand(f));
}
