import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dispositionFilename } from '../../../src/export/filename.js';
import { type SubmissionExportOptions, submissionExportRun } from '../../../src/commands/submission/export.js';
import { newSubmissionExportStatusCommand, submissionExportStatusRun } from '../../../src/commands/submission/export-status.js';
import { selectColumns } from '../../../src/commands/submission/export.js';
import type { Form } from '../../../src/api/forms.js';
import type { Factory } from '../../../src/factory.js';
import { type CliError, InterruptedError } from '../../../src/errors.js';
import { CLEAR_LINE } from '../../../src/io/status-line.js';
import { json, startStubServer, type StubServer } from '../../helpers/http.js';
import { fakeIO } from '../../helpers/io.js';
import { clientFor, serveForm } from '../submission/util.js';

const CSV = '\uFEFFid,Name,created_at\n2,"Lovelace, Ada",2026-01-02 10:00\n1,Grace,2026-01-01 09:00\n';
let dir: string;
let stub: StubServer | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'formctl-export-'));
});
afterEach(async () => {
  await stub?.close();
  stub = undefined;
  rmSync(dir, { recursive: true, force: true });
});

function opts(url: string, o: Partial<SubmissionExportOptions> = {}) {
  const fio = fakeIO();
  let t = 0;
  const options: SubmissionExportOptions = {
    io: fio.io,
    api: async () => clientFor(url),
    now: () => t,
    sleep: async (ms) => void (t += ms),
    form: 'contact-us',
    wait: true,
    pollInterval: 1_000,
    waitTimeout: 60_000,
    ...o,
  };
  return { fio, options };
}

async function failure(p: Promise<unknown>): Promise<CliError> {
  try {
    await p;
  } catch (err) {
    return err as CliError;
  }
  throw new Error('expected a failure');
}

describe('dispositionFilename', () => {
  it('reads quoted, bare and RFC 6266 names and never a path', () => {
    expect(dispositionFilename('attachment; filename="a b.csv"')).toBe('a b.csv');
    expect(dispositionFilename('attachment; filename=contact-us-submission-data.csv')).toBe('contact-us-submission-data.csv');
    expect(dispositionFilename("attachment; filename*=UTF-8''caf%C3%A9.csv; filename=x.csv")).toBe('café.csv');
    expect(dispositionFilename('attachment; filename="../../etc/passwd"')).toBe('passwd');
    expect(dispositionFilename('attachment; filename=".."')).toBeUndefined();
    expect(dispositionFilename("attachment; filename*=UTF-8''..%2F..%2F.bashrc")).toBe('bashrc');
    expect(dispositionFilename('attachment; filename=".profile"')).toBe('profile');
    expect(dispositionFilename('attachment; filename="..."')).toBeUndefined();
    expect(dispositionFilename(undefined)).toBeUndefined();
  });
});

describe('submission export (sync)', () => {
  it('streams the CSV bytes untouched to the Content-Disposition name and sends the columns in order', async () => {
    stub = await startStubServer((req, res) => {
      if (serveForm(req, res)) return;
      res.writeHead(200, { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename=contact-us-submission-data.csv' });
      res.end(CSV);
    });
    const out = join(dir, 'contact-us-submission-data.csv');
    const { fio, options } = opts(stub.url, { columns: ['p_email', 'p_name', 'created_at'] });
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      await submissionExportRun(options);
    } finally {
      process.chdir(cwd);
    }
    expect(readFileSync(out, 'utf8')).toBe(CSV);
    expect(stub.requests[1]).toMatchObject({ method: 'POST', url: '/open/forms/42/submissions/export' });
    expect(stub.requests[1]!.body).toBe('{"columns":{"p_email":true,"p_name":true,"created_at":true}}');
    expect(readdirSync(dir)).toEqual(['contact-us-submission-data.csv']);
    expect(fio.out()).toBe('');
  });

  it('a CSV whose end only the closed connection marks is saved with a warning that a cut cannot be detected', async () => {
    for (const framed of [false, true]) {
      stub = await startStubServer((req, res) => {
        if (serveForm(req, res)) return;
        // Without chunked encoding or a length, the body ends where the connection does (HTTP/1.0 style).
        if (!framed) res.useChunkedEncodingByDefault = false;
        res.writeHead(200, { 'content-type': 'text/csv', connection: 'close' });
        res.end(CSV);
      });
      const out = join(dir, `closed-${framed}.csv`);
      const { fio, options } = opts(stub.url, { output: out });
      await submissionExportRun(options);
      expect(readFileSync(out, 'utf8')).toBe(CSV);
      const warned = `warning: the server did not say how long the CSV is (no Content-Length, not chunked), so a download cut short cannot be told from a complete one; check the row count of ${out}.\n`;
      if (framed) expect(fio.err()).not.toContain('warning:');
      else expect(fio.err()).toBe(warned);
      await stub.close();
      stub = undefined;
    }
  });

  it('selects every input field plus created_at by default, and writes to stdout with -o -', async () => {
    stub = await startStubServer((req, res) => {
      if (serveForm(req, res)) return;
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.end(CSV);
    });
    const { fio, options } = opts(stub.url, { output: '-' });
    await submissionExportRun(options);
    expect(fio.stdout.chunks.map((c) => c.toString('utf8')).join('')).toBe(CSV);
    expect(JSON.parse(stub.requests[1]!.body)).toEqual({ columns: { p_name: true, p_email: true, p_age: true, p_c1: true, p_c2: true, created_at: true } });
  });

  it('--no-wait on a small export: saves the CSV, prints nothing on stdout and says on stderr why there is no job', async () => {
    stub = await startStubServer((req, res) => {
      if (serveForm(req, res)) return;
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.end(CSV);
    });
    const out = join(dir, 'a.csv');
    const { fio, options } = opts(stub.url, { wait: false, output: out });
    await submissionExportRun(options);
    expect(readFileSync(out, 'utf8')).toBe(CSV);
    expect(fio.out()).toBe('');
    expect(fio.err()).toBe(`note: the service sent the CSV directly (a small export), so there is no job; it was saved to ${out}.\n`);
  });

  it('--no-wait with -o - is a usage error before any request (stdout is for the job id)', async () => {
    stub = await startStubServer((req, res) => void serveForm(req, res));
    const err = await failure(submissionExportRun(opts(stub.url, { wait: false, output: '-' }).options));
    expect(err.exitCode).toBe(2);
    expect(err.message).toBe('--no-wait cannot be used with -o - (stdout carries the job id).');
    expect(stub.requests).toEqual([]);
  });

  it('rejects an unknown column id before calling the export, listing the valid ones', async () => {
    stub = await startStubServer((req, res) => void serveForm(req, res));
    const { options } = opts(stub.url, { columns: ['p_name', 'nope'], output: join(dir, 'x.csv') });
    const err = await failure(submissionExportRun(options));
    expect(err.exitCode).toBe(2);
    expect(err.message).toBe('Unknown column id for form "Contact us" (id 42): nope.');
    expect(err.hint).toBe(
      'Valid columns: p_name (Name), p_email (Email), p_age (Age), p_c1 (Comment), p_c2 (comment), created_at, status, meta.attribution.<utm_source|utm_medium|utm_campaign|utm_id|utm_term|utm_content|utm_source_platform|utm_creative_format|utm_marketing_tactic|gclid|gbraid|wbraid|dclid|fbclid|ttclid|msclkid>',
    );
    expect(stub.requests.map((r) => r.method)).toEqual(['GET']);
  });

  it('--columns takes field names in any case too, as --set does; a name two fields share is refused', () => {
    const form = {
      id: 42,
      slug: 'contact',
      title: 'Contact us',
      properties: [
        { id: 'p_name', name: 'Name', type: 'text' },
        { id: 'p_c1', name: 'Comment', type: 'text' },
        { id: 'p_c2', name: 'comment', type: 'text' },
      ],
    } as unknown as Form;
    expect(Object.keys(selectColumns(form, ['created_at', 'NAME', 'p_c2'], undefined))).toEqual(['created_at', 'p_name', 'p_c2']);
    expect(() => selectColumns(form, ['Comment'], undefined)).toThrow('Column "Comment" names 2 fields of form "Contact us" (id 42): p_c1, p_c2.');
  });

  it('--columns takes what the deployed service takes: status, meta.attribution.<parameter>, removed fields by id or name; refuses other keys and layout blocks', () => {
    const form = {
      id: 42,
      slug: 'contact',
      title: 'Contact us',
      properties: [
        { id: 'p_name', name: 'Name', type: 'text' },
        { id: 'p_hr', name: 'Divider', type: 'nf-divider' },
      ],
      // Listed twice: removed, put back and removed again (the service never takes an entry out).
      removed_properties: [
        { id: 'p_old', name: 'Old note', type: 'text' },
        { id: 'p_old', name: 'Old note', type: 'text' },
        { id: 'p_x', name: 'Name', type: 'text' },
      ],
    } as unknown as Form;
    expect(Object.keys(selectColumns(form, ['status', 'meta.attribution.utm_source', 'p_old', 'old NOTE', 'name', 'p_x', 'created_at'], undefined))).toEqual([
      'status',
      'meta.attribution.utm_source',
      'p_old',
      'p_name',
      'p_x',
      'created_at',
    ]);
    const err = (() => {
      try {
        selectColumns(form, ['meta.attribution.utm_nope', 'Status '], undefined);
      } catch (e) {
        return e as CliError;
      }
      throw new Error('expected a refusal');
    })();
    expect([err.exitCode, err.message]).toEqual([2, 'Unknown column ids for form "Contact us" (id 42): meta.attribution.utm_nope, Status .']);
    expect(err.hint).toMatch(
      /^Valid columns: p_name \(Name\), created_at, status, removed fields: p_old \(Old note\), p_x \(Name\), meta\.attribution\.<utm_source\|/,
    );
    expect(() => selectColumns(form, ['p_hr'], undefined)).toThrow(
      'Column "p_hr" is a layout block (nf-divider) of form "Contact us" (id 42): it holds no answers, so the export has no column for it.',
    );
  });

  it('refuses to replace an existing file without --clobber', async () => {
    stub = await startStubServer((req, res) => void serveForm(req, res));
    const out = join(dir, 'a.csv');
    writeFileSync(out, 'precious');
    const err = await failure(submissionExportRun(opts(stub.url, { output: out }).options));
    expect(err.exitCode).toBe(2);
    expect(readFileSync(out, 'utf8')).toBe('precious');
  });

  it('-o in a missing directory is exit 2 before any export request, without naming the .part file; -o a directory is refused too', async () => {
    stub = await startStubServer((req, res) => {
      if (serveForm(req, res)) return;
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.end(CSV);
    });
    const out = join(dir, 'nodir', 'a.csv');
    const err = await failure(submissionExportRun(opts(stub.url, { output: out }).options));
    expect([err.exitCode, err.message]).toEqual([2, `Cannot write ${out}: the directory ${join(dir, 'nodir')} does not exist.`]);
    const isDir = await failure(submissionExportRun(opts(stub.url, { output: dir, clobber: true }).options));
    expect([isDir.exitCode, isDir.message]).toEqual([2, `Cannot write ${dir}: it is a directory.`]);
    expect(stub.requests).toEqual([]);
  });

  it('a dropped connection leaves neither the file nor a .part (exit 11)', async () => {
    stub = await startStubServer((req, res) => {
      if (serveForm(req, res)) return;
      res.writeHead(200, { 'content-type': 'text/csv', 'content-length': '100000' });
      res.write(CSV);
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const out = join(dir, 'a.csv');
    const err = await failure(submissionExportRun(opts(stub.url, { output: out }).options));
    expect(err.exitCode).toBe(11);
    expect(readdirSync(dir)).toEqual([]);
  });

  /** A CSV stub that sends the first bytes, then waits for `release()` before finishing. */
  async function heldServer() {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const server = await startStubServer(async (req, res) => {
      if (serveForm(req, res)) return;
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.write(CSV.slice(0, 10));
      await gate;
      res.end(CSV.slice(10));
    });
    return { server, release };
  }
  const until = async (cond: () => boolean) => {
    while (!cond()) await new Promise((r) => setTimeout(r, 5));
  };

  it('a file that appears under the final name during the download is not replaced (exit 2, no .part)', async () => {
    const held = await heldServer();
    stub = held.server;
    const out = join(dir, 'a.csv');
    const run = failure(submissionExportRun(opts(stub.url, { output: out }).options));
    await until(() => existsSync(`${out}.part`));
    writeFileSync(out, 'precious');
    held.release();
    const err = await run;
    expect(err.exitCode).toBe(2);
    expect(readFileSync(out, 'utf8')).toBe('precious');
    expect(readdirSync(dir)).toEqual(['a.csv']);
  });

  it("a second export to the same file while one runs stops without touching the first one's .part", async () => {
    const held = await heldServer();
    stub = held.server;
    const out = join(dir, 'a.csv');
    const first = submissionExportRun(opts(stub.url, { output: out }).options);
    await until(() => existsSync(`${out}.part`));
    const err = await failure(submissionExportRun(opts(stub.url, { output: out }).options));
    expect(err.exitCode).toBe(2);
    expect(err.message).toMatch(
      new RegExp(
        `^${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.part exists: another export to .* is running \\(process ${process.pid} on this machine, started `,
      ),
    );
    // Refused before its export request: only the first export was sent.
    expect(stub.requests.filter((r) => r.method === 'POST').length).toBe(1);
    held.release();
    await first;
    expect(readFileSync(out, 'utf8')).toBe(CSV);
    expect(readdirSync(dir)).toEqual(['a.csv']);
  });

  it('Ctrl-C mid-download leaves no file (exit 130)', async () => {
    const ac = new AbortController();
    stub = await startStubServer((req, res) => {
      if (serveForm(req, res)) return;
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.write(CSV);
      setTimeout(() => ac.abort(), 20);
    });
    const out = join(dir, 'a.csv');
    const { options } = opts(stub.url, { output: out, signal: ac.signal });
    const err = await failure(submissionExportRun({ ...options, api: async () => clientFor(stub!.url, { signal: ac.signal }) }));
    expect(err.exitCode).toBe(130);
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('submission export (async job)', () => {
  const JOB = 'd3b07384-d9a0-4c9b-8f6e-0a1b2c3d4e5f';

  /**
   * An async-export stub. `FILE` in a status's file_url is replaced by the download URL: on another
   * origin (localhost vs 127.0.0.1) unless `sameOrigin`, where the token must not be sent.
   */
  async function asyncServer(statuses: Array<Record<string, unknown>>, o: { docs404?: boolean; code404?: boolean; sameOrigin?: boolean } = {}) {
    let poll = 0;
    let base = '';
    const next = () => {
      const s = { ...statuses[Math.min(poll++, statuses.length - 1)] };
      if (s.file_url === 'FILE') s.file_url = `${o.sameOrigin ? base : base.replace('127.0.0.1', 'localhost')}/files/export.csv?sig=abc`;
      return s;
    };
    const server = await startStubServer((req, res) => {
      if (serveForm(req, res)) return;
      if (req.method === 'POST') json(res, 200, { message: 'Export started.', job_id: JOB, is_async: true });
      else if (req.url === `/open/forms/42/submissions/export/${JOB}/status`) {
        if (o.docs404) json(res, 404, { message: '' });
        else json(res, 200, next());
      } else if (req.url === `/open/forms/42/submissions/export/status/${JOB}`) {
        if (o.code404) json(res, 404, { message: 'Export job not found or has expired.' });
        else json(res, 200, next());
      } else if (req.url === '/files/export.csv?sig=abc') {
        res.writeHead(200, { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="contact-us-submissions.csv"' });
        res.end(CSV);
      } else json(res, 404, { message: 'no route' });
    });
    base = server.url;
    return server;
  }

  it('polls the docs status path, then downloads file_url (without the token) to the final name', async () => {
    stub = await asyncServer([
      { status: 'queued', progress: 0 },
      { status: 'processing', progress: 40 },
      { status: 'completed', progress: 100, file_url: 'FILE' },
    ]);
    const out = join(dir, 'a.csv');
    const { fio, options } = opts(stub.url, { output: out });
    await submissionExportRun(options);
    expect(readFileSync(out, 'utf8')).toBe(CSV);
    expect(stub.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /open/forms/contact-us',
      'POST /open/forms/42/submissions/export',
      `GET /open/forms/42/submissions/export/${JOB}/status`,
      `GET /open/forms/42/submissions/export/${JOB}/status`,
      `GET /open/forms/42/submissions/export/${JOB}/status`,
      'GET /files/export.csv?sig=abc',
    ]);
    // The file lives on another origin (a pre-signed URL): the API token must not travel there.
    expect(stub.requests[5]!.headers.authorization).toBeUndefined();
    expect(stub.requests[1]!.headers.authorization).toBe('Bearer tok_test');
    // stderr is not a terminal here (a log): no redrawn line, only the last status, once.
    expect(fio.err()).toBe(`Exporting: completed ▕██████████▏ 100%\n`);
  });

  it('on a terminal redraws the status line for each status, then clears it', async () => {
    stub = await asyncServer([
      { status: 'queued', progress: 0 },
      { status: 'processing', progress: 40 },
      { status: 'completed', progress: 100, file_url: 'FILE' },
    ]);
    const tty = fakeIO({ tty: true });
    const { options } = opts(stub.url, { output: join(dir, 'tty.csv') });
    await submissionExportRun({ ...options, io: tty.io });
    expect(tty.err()).toContain(
      `${CLEAR_LINE}Exporting: queued ▕░░░░░░░░░░▏ 0%${CLEAR_LINE}Exporting: processing ▕████░░░░░░▏ 40%${CLEAR_LINE}Exporting: completed ▕██████████▏ 100%${CLEAR_LINE}`,
    );
  });

  it("shows the escapes in a job's status text, on a terminal and in a log, instead of obeying them", async () => {
    // A status that would retitle the window, turn the text red and clear the screen.
    const hostile = 'processing\u001b]0;PWNED\u0007\u001b[31m\u001b[2J';
    const shown = 'Exporting: processing\\x1b]0;pwned\\x07\\x1b[31m\\x1b[2j ▕█░░░░░░░░░▏ 10%';
    // Any control character but the tab and the line break.
    // eslint-disable-next-line no-control-regex
    const controls = /[\u0000-\u0008\u000b-\u001f\u007f]/;
    stub = await asyncServer([
      { status: hostile, progress: 10 },
      { status: 'completed', progress: 100, file_url: 'FILE' },
    ]);
    const tty = fakeIO({ tty: true });
    const { options } = opts(stub.url, { output: join(dir, 'hostile.csv') });
    await submissionExportRun({ ...options, io: tty.io });
    expect(tty.err()).toContain(`${CLEAR_LINE}${shown}${CLEAR_LINE}`);
    // The only escape sequence left is the status line's own redraw.
    expect(tty.err().replaceAll(CLEAR_LINE, '')).not.toMatch(controls);
    await stub.close();
    // In a log the last status is printed once: here the hostile one, as the wait times out.
    stub = await asyncServer([{ status: hostile, progress: 10 }]);
    const log = opts(stub.url, { output: join(dir, 'hostile-log.csv'), waitTimeout: 3_000 });
    await failure(submissionExportRun(log.options));
    expect(log.fio.err().split('\n')[0]).toBe(shown);
    expect(log.fio.err()).not.toMatch(controls);
  });

  it("without -o saves under the download's Content-Disposition name", async () => {
    stub = await asyncServer([{ status: 'completed', progress: 100, file_url: 'FILE' }]);
    const { options } = opts(stub.url);
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      await submissionExportRun(options);
    } finally {
      process.chdir(cwd);
    }
    expect(readdirSync(dir)).toEqual(['contact-us-submissions.csv']);
    expect(readFileSync(join(dir, 'contact-us-submissions.csv'), 'utf8')).toBe(CSV);
  });

  it('falls back to the code status path when the docs path is 404', async () => {
    stub = await asyncServer(
      [
        { status: 'processing', progress: 50 },
        { status: 'completed', progress: 100, file_url: 'FILE' },
      ],
      { docs404: true, sameOrigin: true },
    );
    const out = join(dir, 'a.csv');
    await submissionExportRun(opts(stub.url, { output: out }).options);
    expect(readFileSync(out, 'utf8')).toBe(CSV);
    // The working path is remembered: the docs path is not asked again on the second poll.
    expect(stub.requests.slice(2).map((r) => r.url)).toEqual([
      `/open/forms/42/submissions/export/${JOB}/status`,
      `/open/forms/42/submissions/export/status/${JOB}`,
      `/open/forms/42/submissions/export/status/${JOB}`,
      '/files/export.csv?sig=abc',
    ]);
  });

  it('names the job id when both status paths are 404 (exit 6), leaving no file', async () => {
    stub = await asyncServer([], { docs404: true, code404: true });
    const out = join(dir, 'a.csv');
    const err = await failure(submissionExportRun(opts(stub.url, { output: out }).options));
    expect(err.exitCode).toBe(6);
    expect(err.message).toBe(
      `Export job ${JOB} was not found (tried /open/forms/42/submissions/export/${JOB}/status and /open/forms/42/submissions/export/status/${JOB}).`,
    );
    expect(existsSync(out)).toBe(false);
  });

  it('a failed job exits 1 with the server reason and leaves no file', async () => {
    stub = await asyncServer([
      { status: 'processing', progress: 10 },
      { status: 'failed', error_message: 'No submissions to export' },
    ]);
    const out = join(dir, 'a.csv');
    const err = await failure(submissionExportRun(opts(stub.url, { output: out }).options));
    expect(err.exitCode).toBe(1);
    expect(err.message).toBe(`Export job ${JOB} failed: No submissions to export.`);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('gives up after --wait-timeout with exit 11 and a resume command', async () => {
    stub = await asyncServer([{ status: 'processing', progress: 10 }]);
    const out = join(dir, 'a.csv');
    const err = await failure(submissionExportRun(opts(stub.url, { output: out, pollInterval: 2_000, waitTimeout: 5_000 }).options));
    expect(err.exitCode).toBe(11);
    expect(err.message).toBe(`Gave up waiting for export job ${JOB} after 5 s (last status: processing).`);
    expect(err.hint).toContain(`formctl submission export-status 42 ${JOB} --download`);
    // 0, 0.25, 0.75, 1.75, 3.75 and 5 s: the first polls come sooner, the last lands exactly on the deadline.
    expect(stub.requests.filter((r) => r.url.endsWith('/status')).length).toBe(6);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('--no-wait prints the job id on stdout and the resume command in a note on stderr', async () => {
    stub = await asyncServer([]);
    const { fio, options } = opts(stub.url, { wait: false, output: 'answers.csv', context: async () => ({ profileName: 'work', profileSource: 'profile' }) });
    await submissionExportRun(options);
    expect(fio.out()).toBe(`${JOB}\n`);
    // The current profile (`profile use`) is what the next command picks anyway: not named.
    expect(fio.err()).toBe(
      `note: export job ${JOB} runs in the background; fetch it with: formctl submission export-status 42 ${JOB} --download -o answers.csv\n`,
    );
    // The form, one status read before the export (can a job be fetched later at all?), and the export.
    expect(stub.requests.length).toBe(3);
    expect(stub.requests.map((r) => r.method)).toEqual(['GET', 'GET', 'POST']);
  });

  it('--no-wait names a profile chosen by --profile or FORMCTL_PROFILE in the resume command (text and --json)', async () => {
    stub = await asyncServer([]);
    const jobs = async () => ({ profileName: 'jobs', profileSource: 'flag' as const });
    const text = opts(stub.url, { wait: false, context: jobs });
    await submissionExportRun(text.options);
    expect(text.fio.err()).toBe(
      `note: export job ${JOB} runs in the background; fetch it with: formctl --profile jobs submission export-status 42 ${JOB} --download\n`,
    );
    const asJson = opts(stub.url, { wait: false, json: true, context: async () => ({ profileName: "ada's", profileSource: 'env' as const }) });
    await submissionExportRun(asJson.options);
    expect(JSON.parse(asJson.fio.out()).resume).toBe(`formctl --profile 'ada'\\''s' submission export-status 42 ${JOB} --download`);
  });

  it('Ctrl-C while waiting for the job prints how to fetch it later (exit 130)', async () => {
    stub = await asyncServer([{ status: 'processing', progress: 10 }]);
    const { fio, options } = opts(stub.url, {
      output: 'answers.csv',
      context: async () => ({ profileName: 'jobs', profileSource: 'env' }),
      sleep: async () => {
        throw new InterruptedError();
      },
    });
    const err = await failure(submissionExportRun(options));
    expect(err.exitCode).toBe(130);
    expect(fio.err()).toBe(
      `Exporting: processing ▕█░░░░░░░░░▏ 10%\nnote: export job ${JOB} keeps running on the service; fetch it with: formctl --profile jobs submission export-status 42 ${JOB} --download -o answers.csv\n`,
    );
  });

  it('export-status prints the status as JSON', async () => {
    stub = await asyncServer([{ job_id: JOB, status: 'processing', progress: 55, file_url: null }]);
    const fio = fakeIO();
    await submissionExportStatusRun({
      io: fio.io,
      api: async () => clientFor(stub!.url),
      now: () => 0,
      sleep: async () => undefined,
      form: '42',
      jobId: JOB,
      pollInterval: 1000,
      waitTimeout: 1000,
      json: true,
    });
    expect(JSON.parse(fio.out())).toEqual({ job_id: JOB, status: 'processing', progress: 55, file_url: null });
  });

  it("export-status never prints the file's bearer link unless --json names file_url; a note says how to get it or the file", async () => {
    const done = { job_id: JOB, status: 'completed', progress: 100, file_url: 'FILE', expires_at: '2025-01-01T02:00:00Z' };
    stub = await asyncServer([done]);
    const link = `${stub.url.replace('127.0.0.1', 'localhost')}/files/export.csv?sig=abc`;
    const status = async (extra: { json?: string[] | true; tty?: boolean }) => {
      const fio = fakeIO({ tty: extra.tty ?? false });
      await submissionExportStatusRun({
        io: fio.io,
        api: async () => clientFor(stub!.url),
        now: () => 0,
        sleep: async () => undefined,
        form: '42',
        jobId: JOB,
        pollInterval: 1000,
        waitTimeout: 1000,
        json: extra.json,
      });
      return { out: fio.out(), err: fio.err() };
    };
    const download = `formctl submission export-status 42 ${JOB} --download`;
    const bare = await status({ json: true });
    expect(JSON.parse(bare.out)).toEqual({ job_id: JOB, status: 'completed', progress: 100, expires_at: '2025-01-01T02:00:00Z' });
    expect(bare.err).toBe(
      `note: the job's file_url is left out (anyone holding it can download every answer); name it to print it: --json file_url. To download the file: ${download}\n`,
    );
    const named = await status({ json: ['status', 'file_url'] });
    expect(JSON.parse(named.out)).toEqual({ status: 'completed', file_url: link });
    expect(named.err).toBe('');
    const other = await status({ json: ['status'] });
    expect(JSON.parse(other.out)).toEqual({ status: 'completed' });
    expect(other.err).toBe('');
    const tsv = await status({});
    expect(tsv.out).toBe(`job\t${JOB}\nstatus\tcompleted\nprogress\t100%\nfile\tready\nexpires\t2025-01-01T02:00:00Z\nerror\t\n`);
    expect(tsv.err).toBe(`note: the file is ready; download it with: ${download}\n`);
    const table = await status({ tty: true });
    expect(table.out).toMatch(/File\s+ready\n/);
    for (const r of [bare, other, tsv, table]) expect(r.out + r.err).not.toContain('sig=abc');
  });

  it('export-status refuses fields with --download and unknown fields, before any request', async () => {
    const fio = fakeIO();
    const base = {
      io: fio.io,
      api: async () => {
        throw new Error('no request expected');
      },
      now: () => 0,
      sleep: async () => undefined,
      form: '42',
      jobId: JOB,
      pollInterval: 1000,
      waitTimeout: 1000,
    };
    expect((await failure(submissionExportStatusRun({ ...base, download: true, json: ['file_url'] }))).exitCode).toBe(2);
    // The field list is checked as the flag is parsed, before the run (and any request).
    const run = vi.fn(async () => undefined);
    const unknown = await failure(newSubmissionExportStatusCommand({} as Factory, run).parseAsync(['42', JOB, '--json', 'url'], { from: 'user' }));
    expect(unknown.exitCode).toBe(2);
    expect(unknown.message).toBe('Unknown JSON field: url.');
    expect(run).not.toHaveBeenCalled();
  });
});
