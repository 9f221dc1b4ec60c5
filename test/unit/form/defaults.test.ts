import { describe, expect, it } from 'vitest';
import { CREATE_DEFAULTS, FORM_ENUMS } from '../../../src/forms/document.js';
import { STYLE_DEFAULTS, UPDATE_REQUIRED } from '../../../src/service/forms.js';

describe('form defaults and enums come from the service facts', () => {
  it('create sends the 13 non-property fields of every update, in the update order, with the service’s style defaults', () => {
    expect(Object.entries(CREATE_DEFAULTS)).toEqual([
      ['visibility', 'draft'],
      ['language', 'en'],
      ['theme', 'default'],
      ['presentation_style', 'classic'],
      ['width', 'centered'],
      ['size', 'md'],
      ['border_radius', 'small'],
      ['dark_mode', 'auto'],
      ['color', '#3B82F6'],
      ['uppercase_labels', false],
      ['no_branding', false],
      ['transparent_background', false],
    ]);
    expect(Object.keys(CREATE_DEFAULTS)).toEqual(UPDATE_REQUIRED.filter((k) => k !== 'properties' && k !== 'title'));
    for (const [k, v] of Object.entries(STYLE_DEFAULTS)) expect(CREATE_DEFAULTS[k]).toBe(v);
  });

  it('every enum default is one of its values', () => {
    expect(Object.keys(FORM_ENUMS)).toEqual(['visibility', 'theme', 'presentation_style', 'width', 'size', 'border_radius', 'dark_mode']);
    for (const [k, values] of Object.entries(FORM_ENUMS)) expect(values).toContain(CREATE_DEFAULTS[k]);
  });
});
