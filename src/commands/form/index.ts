import { Command } from 'commander';
import type { Factory } from '../../factory.js';
import { newFormApplyCommand } from './apply.js';
import { newFormBackupsCommand } from './backups.js';
import { newFormCreateCommand } from './create.js';
import { newFormDeleteCommand } from './delete.js';
import { newFormEditCommand } from './edit.js';
import { newFormFieldsCommand } from './fields.js';
import { newFormGetCommand } from './get.js';
import { newFormListAllCommand } from './list-all.js';
import { newFormListCommand } from './list.js';
import { newFormPullCommand } from './pull.js';
import { newFormRestoreCommand } from './restore.js';
import { newFormUpdateCommand } from './update.js';

/** `formctl form …`. */
export default function newFormCommand(f: Factory): Command {
  return new Command('form')
    .description('List, create, update and version forms safely')
    .addCommand(newFormListCommand(f))
    .addCommand(newFormGetCommand(f))
    .addCommand(newFormFieldsCommand(f))
    .addCommand(newFormCreateCommand(f))
    .addCommand(newFormUpdateCommand(f))
    .addCommand(newFormEditCommand(f))
    .addCommand(newFormDeleteCommand(f))
    .addCommand(newFormPullCommand(f))
    .addCommand(newFormApplyCommand(f))
    .addCommand(newFormBackupsCommand(f))
    .addCommand(newFormRestoreCommand(f))
    .addCommand(newFormListAllCommand(f));
}
