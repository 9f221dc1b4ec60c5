// docs/architecture.md ("Adding a flag", the rule on a group's helpers): a command group's directory
// holds its index.ts, one file per verb (registered by index.ts), and helper files that declare no
// command: shared.ts for what the declarations share, and a file per larger subject
// (webhook/target.ts, webhook/view.ts, submission/bulk.ts). This reads the files and checks it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/cli.js';

const COMMANDS = join(ROOT, 'src', 'commands');
const DECLARES_COMMAND = /^export (?:default )?function (new\w*Command)\b/m;

/** Each group's files, as the rule sorts them. */
function groupFiles(group: string) {
  const dir = join(COMMANDS, group);
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
  const text = (f: string) => readFileSync(join(dir, f), 'utf8');
  const index = text('index.ts');
  // A verb is a file index.ts imports a `new…Command` from.
  const verbs = files.filter(
    (f) => f !== 'index.ts' && new RegExp(`import \\{[^}]*\\bnew\\w*Command\\b[^}]*\\} from '\\./${f.replace(/\.ts$/, '')}\\.js'`).test(index),
  );
  const helpers = files.filter((f) => f !== 'index.ts' && !verbs.includes(f));
  const importedInGroup = (f: string) => files.some((g) => g !== f && text(g).includes(`from './${f.replace(/\.ts$/, '')}.js'`));
  return { files, verbs, helpers, text, importedInGroup };
}

const GROUPS = readdirSync(COMMANDS, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);

describe("a command group's files", () => {
  it('every group has an index.ts', () => {
    expect(GROUPS.filter((g) => !readdirSync(join(COMMANDS, g)).includes('index.ts'))).toEqual([]);
  });

  it('a helper file declares no command, and some file of its group uses it', () => {
    const offenders = GROUPS.flatMap((g) => {
      const { helpers, text, importedInGroup } = groupFiles(g);
      return helpers.flatMap((f) => [
        ...(DECLARES_COMMAND.test(text(f)) ? [`${g}/${f}: declares a command that ${g}/index.ts does not register`] : []),
        ...(importedInGroup(f) ? [] : [`${g}/${f}: neither a verb of ${g}/index.ts nor used by a file of the group`]),
      ]);
    });
    expect(offenders).toEqual([]);
  });

  it('a verb file declares its one command, and every group has verbs', () => {
    const offenders = GROUPS.flatMap((g) => {
      const { verbs, text } = groupFiles(g);
      const wrong = verbs.filter((f) => (text(f).match(new RegExp(DECLARES_COMMAND.source, 'gm')) ?? []).length !== 1).map((f) => `${g}/${f}`);
      // A group whose index declares its one command itself (api, completion, sandbox) has no verb files.
      return verbs.length === 0 && !DECLARES_COMMAND.test(text('index.ts')) ? [...wrong, `${g}: no verbs found`] : wrong;
    });
    expect(offenders).toEqual([]);
  });
});
