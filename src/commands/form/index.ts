import { Command } from '@commander-js/extra-typings';
import type { Factory } from '../../factory.js';
import { newFormApplyCommand } from './apply.js';
import { newFormBackupsCommand } from './backups.js';
import { newFormCopyCommand } from './copy.js';
import { newFormCreateCommand } from './create.js';
import { newFormDeleteCommand } from './delete.js';
import { newFormEditCommand } from './edit.js';
import { newFormFieldsCommand } from './fields.js';
import { newFormGetCommand } from './get.js';
import { newFormListAllCommand } from './list-all.js';
import { newFormListCommand } from './list.js';
import { newFormPullCommand } from './pull.js';
import { newFormRestoreCommand } from './restore.js';
import { newFormStatsCommand } from './stats.js';
import { newFormUpdateCommand } from './update.js';
import { examples } from '../shared.js';

/** `formctl form …`. */
export default function newFormCommand(f: Factory) {
  const cmd = new Command('form')
    .description('List, create, update and version forms safely')
    .addCommand(newFormListCommand(f))
    .addCommand(newFormGetCommand(f))
    .addCommand(newFormFieldsCommand(f))
    .addCommand(newFormStatsCommand(f))
    .addCommand(newFormCreateCommand(f))
    .addCommand(newFormUpdateCommand(f))
    .addCommand(newFormEditCommand(f))
    .addCommand(newFormDeleteCommand(f))
    .addCommand(newFormPullCommand(f))
    .addCommand(newFormApplyCommand(f))
    .addCommand(newFormCopyCommand(f))
    .addCommand(newFormBackupsCommand(f))
    .addCommand(newFormRestoreCommand(f))
    .addCommand(newFormListAllCommand(f));
  return examples(cmd, [
    'formctl form list',
    'formctl form view contact-us',
    'formctl form create --title "Contact us" --field Name --field Email:email',
    'formctl form update 42 --title "Contact"',
    "formctl form list --json id,title | jq -r '.[].title'",
  ]);
}
