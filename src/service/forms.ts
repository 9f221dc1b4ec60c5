// The service's form rules both sides need (docs/forms.md, docs/service.md): the enum sets of the
// deployed server (the spec leaves them "not shown"), the defaults a new form gets, the 14 fields an
// update carries, and the limits. The client checks a form against them before sending it; the
// sandbox enforces them.

/** A form property (field or block). Only these four are in the spec; the rest passes through untouched. */
export interface FormProperty {
  id: string;
  type: string;
  name: string;
  required?: boolean;
  [key: string]: unknown;
}

/**
 * Layout blocks (`nf-*`) are never answered nor exported (docs/service-details.md, Form blocks). The
 * type is checked to be a string: the client reads forms as the service sends them.
 */
export function isLayoutBlock(p: Pick<FormProperty, 'type'>): boolean {
  return typeof p.type === 'string' && p.type.startsWith('nf-');
}

/** Visibility values (spec). */
export const VISIBILITIES = ['public', 'draft', 'closed'] as const;

/** The 32 language codes the deployed server accepts; the spec only says "two letters". */
export const LANGUAGES = [
  'ar',
  'bn',
  'ca',
  'cs',
  'de',
  'en',
  'es',
  'eu',
  'fr',
  'gl',
  'hi',
  'hu',
  'it',
  'ja',
  'jv',
  'ko',
  'mr',
  'nl',
  'pa',
  'pl',
  'pt',
  'ru',
  'sk',
  'sr',
  'sv',
  'ta',
  'te',
  'tr',
  'uk',
  'ur',
  'vi',
  'zh',
] as const;

/** Title length limit: the spec's 60; the deployed server allows 255 (docs/service.md). */
export const TITLE_MAX = { spec: 60, deployed: 255 } as const;

/** The style enums of the deployed server, each with the value a new form gets. */
export const STYLE_ENUMS = {
  theme: { values: ['default', 'simple', 'notion', 'minimal', 'transparent'], default: 'default' },
  presentation_style: { values: ['classic', 'focused'], default: 'classic' },
  width: { values: ['centered', 'full'], default: 'centered' },
  size: { values: ['sm', 'md', 'lg'], default: 'md' },
  border_radius: { values: ['none', 'small', 'full'], default: 'small' },
  dark_mode: { values: ['auto', 'light', 'dark'], default: 'auto' },
} as const;

/** Style switches; a new form gets false. */
export const STYLE_BOOLEANS = ['uppercase_labels', 'no_branding', 'transparent_background'] as const;

/** A hex colour, #rgb or #rrggbb. */
export const COLOR_PATTERN = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
export const DEFAULT_COLOR = '#3B82F6';

/** The style attributes a new form gets when they are not given: the enums' defaults, the colour, the switches off. */
export const STYLE_DEFAULTS: Readonly<Record<string, unknown>> = {
  ...Object.fromEntries(Object.entries(STYLE_ENUMS).map(([k, e]) => [k, e.default])),
  color: DEFAULT_COLOR,
  ...Object.fromEntries(STYLE_BOOLEANS.map((k) => [k, false])),
};

/** The 14 fields every PUT must carry (spec, PUT /open/forms/{id}). */
export const UPDATE_REQUIRED = [
  'title',
  'visibility',
  'language',
  'theme',
  'presentation_style',
  'width',
  'size',
  'border_radius',
  'dark_mode',
  'color',
  'uppercase_labels',
  'no_branding',
  'transparent_background',
  'properties',
] as const;

/**
 * The optional writable attributes (beside UPDATE_REQUIRED and the retention pair): the sandbox
 * validates each (src/sandbox/form-rules.ts), and a client update naming an attribute outside these
 * is refused before sending (docs/forms.md, "Unknown attributes").
 */
export const OPTIONAL_ATTRIBUTES = [
  'description',
  'tags',
  'font_family',
  'layout_rtl',
  'closes_at',
  'closed_text',
  'logo_picture',
  'cover_picture',
  'submit_button_text',
  'submitted_text',
  're_fillable',
  're_fill_button_text',
  'redirect_url',
  'max_submissions_count',
  'max_submissions_reached_text',
  'editable_submissions',
  'editable_submissions_button_text',
  'confetti_on_submission',
  'show_progress_bar',
  'auto_save',
  'auto_focus',
  'enable_partial_submissions',
  'use_captcha',
  'can_be_indexed',
  'password',
  'custom_code',
  'seo_meta',
  'settings',
  'cover_settings',
  'translations',
  'computed_variables',
  'database_fields_update',
  'custom_css',
  'pdf_download_enabled',
  'pdf_download_button_text',
  'enable_ip_tracking',
  'clear_empty_fields_on_update',
] as const;
export type OptionalAttribute = (typeof OPTIONAL_ATTRIBUTES)[number];

/** The largest request body the service (and the sandbox) takes: 10 MiB; beyond it the answer is 413. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

/** What Laravel's TrimStrings strips at either end: PCRE's `\s` and three invisible marks (Str::trim), not every Unicode space. */
const LARAVEL_TRIM = /^[ \t\n\v\f\r\uFEFF\u200B\u200E]+|[ \t\n\v\f\r\uFEFF\u200B\u200E]+$/g;

/**
 * A request body as the deployed server's controllers see it: its global middleware trims every
 * string and turns an empty one into null, inside lists and objects too (OpnForm
 * api/app/Http/Kernel.php:45-46, TrimStrings and ConvertEmptyStringsToNull), so `"  "` and `""`
 * arrive as null and `[""]` as `[null]`. TrimStrings spares the top-level `password` keys, and URLs
 * matching `/api/forms/…/answer` (api/app/Http/Middleware/TrimStrings.php:14-17, 24-38), which never match
 * on the self-hosted image: its nginx strips `/api` from the path it hands the app
 * (docker/nginx.conf:1-4,38). The client models it for forms (deployedFormInput), the sandbox's
 * deployed flavour applies it to every body.
 */
export function laravelInput(body: Record<string, unknown>): Record<string, unknown> {
  const clean = (v: unknown, trim: boolean): unknown => {
    if (typeof v === 'string') {
      const s = trim ? v.replace(LARAVEL_TRIM, '') : v;
      return s === '' ? null : s;
    }
    if (Array.isArray(v)) return v.map((x) => clean(x, true));
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, clean(x, true)]));
    return v;
  };
  return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, clean(v, k !== 'password' && k !== 'password_confirmation')]));
}

/** PHP's strip_tags, approximately: a `<` that starts a tag name, a closing tag, a comment or `!`/`?` markup, up to its `>`. */
export function stripTags(s: string): string {
  return s.replace(/<!--[\s\S]*?-->|<[A-Za-z/!?][^>]*>?/g, '');
}

/**
 * A form body (create or update) as the deployed server stores it, before its validation rules run:
 * 1. its global middleware (laravelInput) trims every string at any depth (but the top-level `password`) and
 *    turns an empty one into null (OpnForm api/app/Http/Kernel.php:45-46, TrimStrings and
 *    ConvertEmptyStringsToNull; api/app/Http/Middleware/TrimStrings.php:14-17);
 * 2. the form request hands the body to FormDataNormalizer (api/app/Http/Requests/UserFormRequest.php:35),
 *    which cuts the title to 255 characters (api/app/Service/Forms/FormDataNormalizer.php:15-17),
 *    strips tags from each block's name and trims it (:37-39), and turns a `help` with no text
 *    left once tags are stripped into null (:41-46). The HTML purifier it runs over `help` first is not
 *    modelled: a help text with markup the purifier removes is stored otherwise.
 * The spec says nothing of this: its service stores what it is sent (the title trimmed).
 */
export function deployedFormInput(body: Record<string, unknown>): Record<string, unknown> {
  const out = laravelInput(body);
  if (typeof out.title === 'string') out.title = [...out.title].slice(0, 255).join('');
  if (Array.isArray(out.properties)) {
    out.properties = out.properties.map((p: unknown) => {
      if (p === null || typeof p !== 'object' || Array.isArray(p)) return p;
      const q = { ...(p as Record<string, unknown>) };
      if (typeof q.name === 'string') q.name = stripTags(q.name).trim();
      if (typeof q.help === 'string' && stripTags(q.help) === '') q.help = null;
      return q;
    });
  }
  return out;
}
