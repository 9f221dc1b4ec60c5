import { describe, expect, it } from 'vitest';
import { createPrompter } from '../../../src/io/prompter.js';
import { fakeIO } from '../../helpers/io.js';

// Names in a picker come from the service (form titles, workspace names, webhook URLs): a control
// sequence in one must not reach the terminal (reviewer defect 7: `\e]0;pwned\a` retitled the window).
const EVIL = 'Evil \x1b]0;pwned\x07 form \x1b[2J';

describe('the prompter shows service text with control characters made visible', () => {
  for (const kind of ['search', 'select'] as const) {
    it(`${kind}: choice names, descriptions and the message`, async () => {
      const f = fakeIO({ tty: true, canPrompt: true });
      const p = createPrompter(f.io);
      const answer = p[kind]({ message: `Pick ${EVIL}`, flag: '--x', choices: [{ name: EVIL, value: 7, description: `desc ${EVIL}` }] });
      // Enter once the prompt has drawn its list.
      for (let i = 0; i < 100 && !f.err().includes('Evil'); i++) await new Promise((r) => setImmediate(r));
      f.stdin.write('\r');
      expect(await answer).toBe(7);
      const shown = f.err();
      expect(shown).toContain('Evil \\x1b]0;pwned\\x07 form \\x1b[2J');
      expect(shown).not.toContain('\x1b]0;');
      expect(shown).not.toContain('\x07');
      expect(shown).not.toContain('\x1b[2J');
    });
  }
});

describe('a confirmation that names a form shows its title with control characters made visible', () => {
  it('confirm', async () => {
    const f = fakeIO({ tty: true, canPrompt: true });
    const answer = createPrompter(f.io).confirm({ message: `Delete form "${EVIL}"?`, flag: '--yes' });
    for (let i = 0; i < 100 && !f.err().includes('Evil'); i++) await new Promise((r) => setImmediate(r));
    f.stdin.write('y\r');
    expect(await answer).toBe(true);
    expect(f.err()).toContain('Evil \\x1b]0;pwned\\x07');
    expect(f.err()).not.toContain('\x1b]0;');
  });
});
