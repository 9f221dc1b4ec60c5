import { describe, expect, it } from 'vitest';
import { FLAVORS } from '../helpers/sandbox.js';
import { boot, call } from './helpers.js';

// Who am I (docs/service.md, "Who am I"): GET /external/zapier/validate answers the token owner's
// name and e-mail to any token, under the /external/ routes' own limiter (60 a minute per user).
describe.each(FLAVORS)('who am I (%s flavour)', (flavor) => {
  it('answers {name, email} to a token without any ability, and 401 to an unknown token', async () => {
    const sb = await boot({ flavor });
    sb.admin.createUser({ email: 'eve@example.com', name: 'Eve Example' });
    const bare = sb.admin.createToken('eve@example.com', []);
    const res = await call(sb, 'GET', '/external/zapier/validate', undefined, bare);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ name: 'Eve Example', email: 'eve@example.com' });
    expect((await call(sb, 'GET', '/external/zapier/validate', undefined, 'fsk_unknown')).status).toBe(401);
    const wrong = await call(sb, 'POST', '/external/zapier/validate', {}, bare);
    expect(wrong.status).toBe(405);
  });

  it('is counted by its own limiter (60 a minute), not by the general one', async () => {
    const sb = await boot({ flavor, rateLimit: 3 });
    for (let i = 1; i <= 5; i++) {
      const res = await call(sb, 'GET', '/external/zapier/validate');
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe('60');
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(60 - i));
    }
    const general = await call(sb, 'GET', '/open/workspaces');
    expect(general.status).toBe(200);
    expect(general.headers.get('x-ratelimit-limit')).toBe('3');
    expect(general.headers.get('x-ratelimit-remaining')).toBe('2');
  });
});
