import { describe, expect, it } from 'vitest';
import { TOKEN_SUBSTRING_MIN, redactQuerySecrets, redactToken } from '../../../src/api/redact.js';

describe('redactQuerySecrets', () => {
  it('replaces token, signature and pre-signed storage parameters, keeps the others', () => {
    expect(redactQuerySecrets('> GET https://api.example/exports/f.csv?token=abc123&page=2')).toBe(
      '> GET https://api.example/exports/f.csv?token=[REDACTED]&page=2',
    );
    expect(
      redactQuerySecrets('https://s3.example/b/k.csv?X-Amz-Algorithm=AWS4&X-Amz-Credential=AK%2F1&X-Amz-Signature=ff00&X-Amz-Security-Token=t0k&x=1'),
    ).toBe('https://s3.example/b/k.csv?X-Amz-Algorithm=[REDACTED]&X-Amz-Credential=[REDACTED]&X-Amz-Signature=[REDACTED]&X-Amz-Security-Token=[REDACTED]&x=1');
    expect(redactQuerySecrets('/f?sig=s1&sv=2020&se=2030 and /g?access_token=a&api_key=k&Signature=S&Key-Pair-Id=K')).toBe(
      '/f?sig=[REDACTED]&sv=2020&se=2030 and /g?access_token=[REDACTED]&api_key=[REDACTED]&Signature=[REDACTED]&Key-Pair-Id=K',
    );
    expect(redactQuerySecrets('/open/forms/1/submissions?page=3&per_page=100')).toBe('/open/forms/1/submissions?page=3&per_page=100');
  });

  it('replaces the password of credentials in a URL (a base URL behind basic auth)', () => {
    expect(redactQuerySecrets('> GET http://u:s3cret@127.0.0.1:8787/open/workspaces')).toBe('> GET http://u:[REDACTED]@127.0.0.1:8787/open/workspaces');
    expect(redactQuerySecrets('https://a%40b:p%3Aw@forms.example/x?page=2')).toBe('https://a%40b:[REDACTED]@forms.example/x?page=2');
    expect(redactQuerySecrets('https://user@forms.example/x and mailto:a@b.c')).toBe('https://user@forms.example/x and mailto:a@b.c');
  });
});

describe('redactQuerySecrets on incoming-webhook URLs (a service error quoting one)', () => {
  it('redacts the secret path of the known services and the segment after /token/, keeping the rest', () => {
    expect(redactQuerySecrets('The endpoint https://hooks.slack.com/services/T01/B02/XXXXXXXX answered 404.')).toBe(
      'The endpoint https://hooks.slack.com/services/T01/B02/[REDACTED] answered 404.',
    );
    expect(redactQuerySecrets('"https://discord.com/api/webhooks/42/tok3n"')).toBe('"https://discord.com/api/webhooks/42/[REDACTED]"');
    expect(redactQuerySecrets('> GET /open/forms/1/integrations/token/7')).toBe('> GET /open/forms/1/integrations/token/7');
    expect(redactQuerySecrets('for https://h.example/in?apikey=K1&subscription-key=K2&monkey=3')).toBe(
      'for https://h.example/in?apikey=[REDACTED]&subscription-key=[REDACTED]&monkey=3',
    );
  });
});

describe('redactToken', () => {
  it('a token of a real length is masked wherever it appears, also inside a longer word, and in its percent-encoded and JSON-escaped forms', () => {
    const token = '12|AbCdEf/gh';
    expect(token.length).toBeGreaterThanOrEqual(TOKEN_SUBSTRING_MIN);
    expect(redactToken(`Bearer ${token}; pre${token}post`, token)).toBe('Bearer [REDACTED]; pre[REDACTED]post');
    expect(redactToken('/x?t=12%7CAbCdEf%2Fgh&page=2', token)).toBe('/x?t=[REDACTED]&page=2');
    expect(redactToken('{"token":"12|AbCdEf\\/gh"}', token)).toBe('{"token":"[REDACTED]"}');
    expect(redactToken('fsk_main and fsk_mainly', 'fsk_main')).toBe('[REDACTED] and [REDACTED]ly');
  });

  it('a trivially short token is masked where no letter or digit touches it, so unrelated words stay as written', () => {
    expect(redactToken('GET /open/external/x/next?q=x', 'x')).toBe('GET /open/external/[REDACTED]/next?q=[REDACTED]');
    expect(redactToken('{"message":"Token x is not valid."} x1 ax', 'x')).toBe('{"message":"Token [REDACTED] is not valid."} x1 ax');
    expect(redactToken('a.b a-b (a.b)', 'a.b')).toBe('[REDACTED] a-b ([REDACTED])');
    expect(redactToken('éx xé', 'x')).toBe('éx xé');
  });

  it('no token: the text as it is', () => {
    expect(redactToken('x', undefined)).toBe('x');
    expect(redactToken('x', '')).toBe('x');
  });
});
