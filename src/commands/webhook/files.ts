// Local files the webhook verbs read for a flag: payloads, secret files and logic.
import { readFile } from 'node:fs/promises';
import { UsageError } from '../../errors.js';
import { fsReason, notJsonObject, parseJsonText } from '../../io/files.js';

/** Reads a local file for a flag; a missing or unreadable file is a usage error naming the flag. */
export async function readLocalFile(path: string, flag: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (err) {
    throw new UsageError(`Cannot read ${flag} ${path}: ${fsReason(err)}.`);
  }
}

// `webhook create` and `form copy` read a secret file alike (src/webhooks/secret.ts).
export { readSecretFile } from '../../webhooks/secret.js';

/** `--logic-file`: a JSON object (or null/{} to remove the condition). */
export async function readLogicFile(path: string): Promise<unknown> {
  const text = (await readLocalFile(path, '--logic-file')).toString('utf8');
  const source = `--logic-file ${path}`;
  const logic = parseJsonText(text, source);
  if (logic !== null && (typeof logic !== 'object' || Array.isArray(logic))) throw notJsonObject(source, logic, 'a JSON object (or null to always deliver)');
  return logic === null || Object.keys(logic as object).length === 0 ? null : logic;
}
