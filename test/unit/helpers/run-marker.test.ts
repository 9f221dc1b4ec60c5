// The run's marker (test/helpers/global-setup.ts) belongs to one vitest run. A run that a test starts
// (test/e2e/path-with-space.test.ts runs vitest in a copy) inherits the outer run's marker through
// spawnTracked; if it kept it, its teardown would take the outer run's processes (the worker that
// started it, other files' sandboxes) for its own strays and kill them.
import { afterEach, expect, it } from 'vitest';
import { setup } from '../../helpers/global-setup.js';
import { RUN_MARKER } from '../../helpers/processes.js';

const outer = process.env[RUN_MARKER];

afterEach(() => {
  if (outer === undefined) delete process.env[RUN_MARKER];
  else process.env[RUN_MARKER] = outer;
});

it("a run started by a test takes a marker of its own instead of the outer run's", () => {
  process.env[RUN_MARKER] = 'another-run';
  setup();
  expect(process.env[RUN_MARKER]).not.toBe('another-run');
  expect(process.env[RUN_MARKER]).toMatch(new RegExp(`^${process.pid}-`));
});

it("the run's second project keeps the marker its first one set", () => {
  delete process.env[RUN_MARKER];
  setup();
  const first = process.env[RUN_MARKER];
  expect(first).toMatch(new RegExp(`^${process.pid}-`));
  setup();
  expect(process.env[RUN_MARKER]).toBe(first);
});
