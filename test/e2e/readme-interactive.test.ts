// The README lines that prompt on a terminal (noted `<!-- replay in a terminal: `…` -->` above their
// block in README.md), run as written in a real terminal (tmux) against the sandbox, answering the
// prompts as a person would.
// Each entry's setup brings the story to the state the README assumes at that line.
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, ROOT, runFormctl } from '../helpers/cli.js';
import { sandboxForTest } from '../helpers/fixture.js';
import { README_HOSTS, type Statement, copyExamples, readReadme } from '../helpers/readme.js';
import { type TestSandbox } from '../helpers/sandbox.js';
import { type TmuxSession, hasTmux, startTmuxCommand } from '../helpers/tmux.js';

interface Ctx {
  sandbox: TestSandbox;
  env: NodeJS.ProcessEnv;
  t: TmuxSession;
}

interface Scripted {
  /** The command as the README's note names it. */
  command: string;
  /** CLI lines (README lines of the same section) run first, with the story's logged-in profile. */
  setup?: (c: Omit<Ctx, 't'>) => Promise<void>;
  answer: (c: Ctx, s: Statement) => Promise<void>;
}

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

async function cli(c: Omit<Ctx, 't'>, args: string[]): Promise<void> {
  const r = await runFormctl(args, { env: c.env });
  expect(r.code, r.stderr).toBe(0);
}

const login = async ({ sandbox, t }: Ctx) => {
  await t.waitForText(/Personal access token for 127\.0\.0\.1:\d+/);
  t.type(sandbox.tokens.all);
  t.sendKeys('Enter');
  expect(await t.exitCode()).toBe(0);
  expect(t.screen()).not.toContain(sandbox.tokens.all);
};
const confirmYes =
  (prompt: RegExp) =>
  async ({ t }: Ctx) => {
    await t.waitForText(prompt);
    t.sendKeys('y', 'Enter');
    expect(await t.exitCode()).toBe(0);
  };
const createForms = (n: number) => async (c: Omit<Ctx, 't'>) => {
  // README "Creating forms": form 2 "Contact us", form 3 from examples/contact-form.json.
  await cli(c, ['form', 'create', '--title', 'Contact us', '--field', 'Name', '--field', 'Email:email']);
  if (n > 1) await cli(c, ['form', 'create', '--file', join(c.env.PWD!, 'examples', 'contact-form.json'), '--visibility', 'public']);
};

const SCRIPTED: Scripted[] = [
  { command: 'formctl auth login', answer: login },
  { command: 'formctl auth login --base-url https://forms.example.com', answer: login },
  {
    command: 'formctl form create',
    answer: async ({ t }) => {
      await t.waitForText(/\? Title/);
      t.type('Contact us');
      t.sendKeys('Enter');
      await t.waitForText(/\? First field name/);
      t.sendKeys('Enter');
      await t.waitForText(/\? First field type/);
      t.sendKeys('Enter');
      expect(await t.exitCode()).toBe(0);
      expect(t.screen()).toMatch(/✓ Created form "Contact us" \(id 2, draft\)\./);
    },
  },
  {
    command: 'formctl form edit 2',
    setup: createForms(1),
    answer: async (c) => {
      await confirmYes(/Update form 2 with these changes\?/)(c);
      expect(c.t.screen()).toContain('Edited in $EDITOR.');
    },
  },
  { command: 'formctl form delete 3', setup: createForms(2), answer: confirmYes(/Delete form .*\(id 3\)/) },
  { command: 'formctl submission delete 1 5', answer: confirmYes(/Delete submission 5/) },
  {
    command: 'formctl member remove admin@example.com',
    // The README tries to remove the workspace's only member: refused before any prompt (exit 2), even on a terminal.
    answer: async ({ t }, s) => {
      await t.waitForText(/Refusing to remove Ada Admin/);
      expect(t.screen().replace(/\s+/g, ' ')).toContain('error: Refusing to remove Ada Admin (admin@example.com) from');
      expect(promptShownAfter(s)).toMatch(/^error: Refusing to remove Ada Admin/);
      expect(await t.exitCode()).toBe(2);
    },
  },
];

/** The output line the README shows right under a console statement (here: the prompt). */
function promptShownAfter(s: Statement): string {
  return readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n')[s.line] ?? '';
}

const { statements, notes } = readReadme();

describe('README lines that prompt: the table', () => {
  it('scripts exactly the lines the README runner sends here', () => {
    const interactive = new Set(notes.filter((n) => n.how === 'in a terminal').map((n) => n.command));
    expect(SCRIPTED.map((x) => x.command).sort()).toEqual([...interactive].sort());
  });
});

const sessions: TmuxSession[] = [];
afterEach(() => {
  for (const s of sessions.splice(0)) s.kill();
});

describe.skipIf(!hasTmux())('README lines that prompt, in a real terminal (tmux)', () => {
  for (const entry of SCRIPTED) {
    for (const s of statements.filter((x) => x.note?.how === 'in a terminal' && x.note.command === entry.command)) {
      it(`README.md:${s.line}: ${s.text}`, async () => {
        const { sb: sandbox, home } = await sandboxForTest({ seed: 5, allowPrivateWebhooks: true });
        const dir = join(home.dir, 'work');
        mkdirSync(dir);
        copyExamples(dir);
        const editor = join(home.dir, 'editor.mjs');
        writeFileSync(
          editor,
          `#!/usr/bin/env node
import { readFileSync, writeFileSync } from 'node:fs';
const f = process.argv[2];
const lines = readFileSync(f, 'utf8').split('\\n');
const doc = JSON.parse(lines.filter((l) => !l.startsWith('//')).join('\\n'));
doc.description = 'Edited in $EDITOR.';
writeFileSync(f, JSON.stringify(doc, null, 2) + '\\n');
`,
        );
        chmodSync(editor, 0o755);
        const env: NodeJS.ProcessEnv = { ...home.env, PWD: dir, EDITOR: editor };
        const login = await runFormctl(['--profile', 'local', 'auth', 'login', '--with-token', '--base-url', sandbox.url], { env, input: sandbox.tokens.all });
        expect(login.code, login.stderr).toBe(0);
        await cli({ sandbox, env }, ['profile', 'use', 'local']);
        await entry.setup?.({ sandbox, env });

        let line = s.text;
        for (const host of README_HOSTS) line = line.split(host).join(sandbox.url);
        const assignments = Object.entries({ PATH: process.env.PATH, TERM: 'xterm-256color', NO_COLOR: '1', ...env })
          .map(([k, v]) => `${k}=${q(String(v))}`)
          .join(' ');
        const script = `formctl() { ${q(process.execPath)} ${q(BIN)} "$@"; }\n${line}\n`;
        const t = startTmuxCommand(`cd ${q(dir)} && env -i ${assignments} bash --norc --noprofile -c ${q(script)}; echo "EXIT=$?"; sleep 600`, { height: 50 });
        sessions.push(t);
        await entry.answer({ sandbox, env, t }, s);
        expect(t.screen()).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
      });
    }
  }
});
