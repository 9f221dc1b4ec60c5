// Bad input to api, invite, submission export and the file-reading flags, from the built binary:
// one error line naming the flag and what was given (never a value that may be a secret), then a
// hint saying what to write; exit 2 and nothing sent.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runFormctl } from '../helpers/cli.js';
import { useSandboxFixture } from '../helpers/fixture.js';

describe('bad input gets one error line and a hint (exit 2)', () => {
  const fx = useSandboxFixture({ seed: 2 });

  const refused = async (args: string[], stderr: string) => {
    const r = await runFormctl(args, { env: fx.env });
    expect(r).toEqual({ code: 2, stdout: '', stderr });
  };

  it('api -F / -f without key=: names the flag and the name given, with an example', async () => {
    await refused(
      ['api', '/open/workspaces', '-F', 'name'],
      `error: -F "name" is not key=value: it has no '='.\nhint: Write it as -F name=value, e.g. -F name=Acme (-F count=3 sends a number, -F notes=@notes.txt a file's text).\n`,
    );
    await refused(
      ['api', '/open/workspaces', '-f', 'fsk_s3cr3tS3cr3tS3cr3t'],
      `error: -f (not shown, in case it is a secret) is not key=value: it has no '='.\nhint: Write it as -f key=value, e.g. -f name=Acme (always a string; -F sends numbers, true/false/null and files).\n`,
    );
  });

  it('api -H without a colon: names the header, shows Name: value, never the value', async () => {
    await refused(
      ['api', '/open/workspaces', '-H', 'X-Foo'],
      `error: -H "X-Foo" is not a valid header: it has no ':' between the name and the value.\nhint: Write it as -H 'X-Foo: value'.\n`,
    );
    await refused(
      ['api', '/open/workspaces', '-H', 'X-Api-Key s3cr3t'],
      `error: -H "X-Api-Key …" is not a valid header: it has no ':' between the name and the value.\nhint: Write it as -H 'X-Api-Key: value'.\n`,
    );
  });

  it('a file that cannot be read: api -F @file, api --input, form apply -f, form restore --backup', async () => {
    const missing = join(fx.work, 'nofile.json');
    const where = 'Check the path: a relative one starts in the directory formctl runs in.';
    await refused(
      ['api', '/open/workspaces/create', '-F', `name=@${missing}`],
      `error: Cannot read ${missing}: no such file.\nhint: ${where} -F key=@FILE sends a file's text; to send text that starts with @, use -f.\n`,
    );
    await refused(
      ['api', '/open/workspaces/create', '-X', 'POST', '--input', missing],
      `error: Cannot read --input ${missing}: no such file.\nhint: ${where} --input - reads the body from stdin.\n`,
    );
    await refused(['form', 'apply', '-f', missing], `error: Cannot read ${missing}: no such file.\nhint: ${where}\n`);
    await refused(['form', 'restore', String(fx.sb.formId), '--backup', missing, '--yes'], `error: Cannot read ${missing}: no such file.\nhint: ${where}\n`);
    await refused(['form', 'apply', '-f', fx.work], `error: Cannot read ${fx.work}: it is a directory.\nhint: Name a file, not a directory.\n`);
  });

  it('invite cancel with an address: the hint says an invite is named by its id', async () => {
    await refused(
      ['invite', 'cancel', 'carol@example.com', '--yes'],
      'error: invite id must be a whole number from 1 to 9007199254740991, got "carol@example.com".\nhint: An invite is named by its id, not its address: `formctl invite list` shows the ids.\n',
    );
  });

  it("submission export --columns '': names columns to give, or to leave the flag out", async () => {
    await refused(
      ['submission', 'export', String(fx.sb.formId), '--columns', ''],
      `error: --columns needs at least one column id.\nhint: Name them, e.g. --columns name,email,created_at (field ids or names: formctl form get ${fx.sb.formId} --json properties); or leave --columns out for every field.\n`,
    );
  });
});
