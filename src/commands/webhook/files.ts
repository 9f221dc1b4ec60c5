// Local files the webhook verbs read for a flag: payloads, secrets (also from stdin) and logic.
import { readFile } from 'node:fs/promises';
import { UsageError } from '../../errors.js';
import { fsReason, notJsonObject, parseJsonText } from '../../io/files.js';
import { type IOStreams, readAll } from '../../io/iostreams.js';
import { cleanSecret } from '../../webhooks/secret.js';

/** Reads a local file for a flag; a missing or unreadable file is a usage error naming the flag. */
export async function readLocalFile(path: string, flag: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (err) {
    throw new UsageError(`Cannot read ${flag} ${path}: ${fsReason(err)}.`);
  }
}

/** A secret from `--secret-file` (trailing line breaks dropped); never echoed in errors. */
export async function readSecretFile(path: string): Promise<string> {
  const secret = cleanSecret((await readLocalFile(path, '--secret-file')).toString('utf8'));
  if (secret === '') throw new UsageError(`--secret-file ${path} is empty.`);
  return secret;
}

/** The secret for create: from a file, stdin, or freshly generated; at most one source. */
export async function secretFromFlags(io: IOStreams, f: { secretFile?: string; secretStdin?: boolean; generateSecret?: boolean }): Promise<string | undefined> {
  const sources = [f.secretFile !== undefined, f.secretStdin === true, f.generateSecret === true].filter(Boolean).length;
  if (sources > 1) throw new UsageError('Use only one of --secret-file, --secret-stdin and --generate-secret.');
  if (f.secretFile !== undefined) return readSecretFile(f.secretFile);
  if (f.secretStdin) {
    if (io.stdinIsTTY)
      throw new UsageError('--secret-stdin needs the secret piped in.', 'Example: pass show webhooks/crm | formctl webhook create 42 --url … --secret-stdin');
    const secret = cleanSecret((await readAll(io.stdin)).toString('utf8'));
    if (secret === '') throw new UsageError('--secret-stdin: stdin was empty.');
    return secret;
  }
  return undefined;
}

/** `--logic-file`: a JSON object (or null/{} to remove the condition). */
export async function readLogicFile(path: string): Promise<unknown> {
  const text = (await readLocalFile(path, '--logic-file')).toString('utf8');
  const source = `--logic-file ${path}`;
  const logic = parseJsonText(text, source);
  if (logic !== null && (typeof logic !== 'object' || Array.isArray(logic))) throw notJsonObject(source, logic, 'a JSON object (or null to always deliver)');
  return logic === null || Object.keys(logic as object).length === 0 ? null : logic;
}
