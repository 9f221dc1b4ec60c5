#!/usr/bin/env node
// Regenerates completions/ from the built CLI (run `npm run build` first): each file is exactly
// what `formctl completion <shell>` prints (the fixed scripts of src/completion/scripts.ts).
// Usage: node scripts/gen-completions.mjs [--check]   (--check: exit 1 when a file is stale)
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const files = { bash: 'formctl.bash', zsh: '_formctl', fish: 'formctl.fish' };
const check = process.argv.includes('--check');
const dir = join(root, 'completions');
mkdirSync(dir, { recursive: true });

let stale = 0;
for (const [shell, name] of Object.entries(files)) {
  // A clean environment: the script must not depend on who generates it.
  const script = execFileSync(process.execPath, [join(root, 'bin', 'formctl.js'), 'completion', shell], {
    env: { PATH: process.env.PATH, NO_COLOR: '1' },
    encoding: 'utf8',
  });
  const target = join(dir, name);
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    // A new file.
  }
  if (current === script) continue;
  if (check) {
    console.error(`completions/${name} is stale`);
    stale++;
    continue;
  }
  writeFileSync(`${target}.tmp`, script);
  renameSync(`${target}.tmp`, target);
  console.log(`wrote completions/${name}`);
}
if (stale) {
  console.error('Regenerate with: npm run build && node scripts/gen-completions.mjs');
  process.exit(1);
}
