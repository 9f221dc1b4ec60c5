// Local files the webhook verbs read for a flag: payloads, secret files and logic.
import { readFile } from 'node:fs/promises';
import { UsageError } from '../../errors.js';
import { fsReason, notJsonObject, parseJsonText } from '../../io/files.js';
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

/** `--logic-file`: a JSON object (or null/{} to remove the condition). */
export async function readLogicFile(path: string): Promise<unknown> {
  const text = (await readLocalFile(path, '--logic-file')).toString('utf8');
  const source = `--logic-file ${path}`;
  const logic = parseJsonText(text, source);
  if (logic !== null && (typeof logic !== 'object' || Array.isArray(logic))) throw notJsonObject(source, logic, 'a JSON object (or null to always deliver)');
  return logic === null || Object.keys(logic as object).length === 0 ? null : logic;
}
