// Focused checks of pieces that HTTP alone cannot reach deterministically.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import type { App } from '../../src/sandbox/context.js';
import { logicAllows, logicProblem } from '../../src/sandbox/logic.js';
import { Router } from '../../src/sandbox/router.js';
import { requestListener } from '../../src/sandbox/server.js';
import { isPublicAddress } from '../../src/service/addresses.js';
import { initialStore } from '../../src/sandbox/seed.js';
import { Errors, requiredEmail } from '../../src/sandbox/validation.js';

describe('sandbox server error mapping', () => {
  it('turns an unexpected exception into 500 {message: "Server error."} without details', async () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    const router = new Router<{ auth: boolean; handler: () => never }>();
    router.add('GET', '/boom', {
      auth: false,
      handler: () => {
        throw new Error('database password is hunter2');
      },
    });
    const app = { store: initialStore(0), opts: { flavor: 'spec' } } as unknown as App;
    const listener = requestListener(app, router as never, {});
    const server = http.createServer((req, res) => void listener(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/boom`);
      expect(res.status).toBe(500);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(await res.text()).toBe('{"message":"Server error."}');
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]![0])).toContain('database password is hunter2');
    } finally {
      warn.mockRestore();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('sandbox address classification', () => {
  it.each([
    ['93.184.216.34', true],
    ['2606:4700:4700::1111', true],
    ['127.0.0.1', false],
    ['10.0.0.1', false],
    ['172.16.5.4', false],
    ['192.168.1.1', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['224.0.0.1', false],
    ['192.0.2.10', false],
    ['::1', false],
    ['::', false],
    ['fe80::1', false],
    ['fd00:ec2::254', false],
    ['::ffff:10.0.0.1', false],
    ['::ffff:8.8.8.8', false],
    ['64:ff9b::a00:1', false],
    ['2001:db8::1', false],
    // IPv4-compatible IPv6 (::a.b.c.d, deprecated) and everything outside 2000::/3 (global unicast).
    ['::7f00:1', false],
    ['::a9fe:a9fe', false],
    ['::808:808', false],
    ['2002:7f00:1::', false],
    ['2001::1', false],
    ['4000::1', false],
    ['2606:4700:4700::1111', true],
    ['not-an-ip', false],
  ])('%s public = %s', async (address, expected) => {
    expect(await isPublicAddress(address)).toBe(expected);
  });
});

describe('sandbox integration logic', () => {
  const leaf = (identifier: string, operator: string, value?: unknown) => ({ identifier, value: { operator, value } });

  it.each([
    [leaf('a', 'equals', 'x'), { a: 'x' }, true],
    [leaf('a', 'equals', 5), { a: '5' }, true],
    [leaf('a', 'equals', 'x'), { a: 'y' }, false],
    [leaf('a', 'does_not_equal', 'x'), {}, true],
    [leaf('a', 'contains', 'ell'), { a: 'hello' }, true],
    [leaf('a', 'contains', 'red'), { a: ['red', 'blue'] }, true],
    [leaf('a', 'does_not_contain', 'red'), { a: ['blue'] }, true],
    [leaf('a', 'starts_with', 'he'), { a: 'hello' }, true],
    [leaf('a', 'ends_with', 'lo'), { a: 'hello' }, true],
    [leaf('a', 'is_empty'), { a: '' }, true],
    [leaf('a', 'is_empty'), { a: [] }, true],
    [leaf('a', 'is_not_empty'), { a: 'x' }, true],
    [leaf('a', 'greater_than', 3), { a: 4 }, true],
    [leaf('a', 'greater_than', 3), { a: 'abc' }, false],
    [leaf('a', 'less_than_or_equal_to', 3), { a: 3 }, true],
    [leaf('a', 'is_checked'), { a: true }, true],
    [leaf('a', 'is_not_checked'), { a: 'true' }, true],
    [leaf('a', 'before', '2025-01-02'), { a: '2025-01-01' }, true],
    [leaf('a', 'on_or_after', '2025-01-02'), { a: '2025-01-01' }, false],
    [{ conditions: { operatorIdentifier: 'and', children: [leaf('a', 'equals', 1), leaf('b', 'equals', 2)] } }, { a: 1, b: 3 }, false],
    [{ operatorIdentifier: 'or', children: [leaf('a', 'equals', 1), leaf('b', 'equals', 2)] }, { a: 0, b: 2 }, true],
  ])('%j with %j → %s', (logic, data, expected) => {
    expect(logicProblem(logic)).toBeNull();
    expect(logicAllows(logic as Record<string, unknown>, data)).toBe(expected);
  });

  it('always allows without logic and rejects shapes it cannot evaluate', () => {
    expect(logicAllows(null, {})).toBe(true);
    expect(logicAllows({}, {})).toBe(true);
    expect(logicProblem([])).toBe('The logic field must be an object or null.');
    expect(logicProblem({ operatorIdentifier: 'xor', children: [] })).toBe('The logic has an operatorIdentifier other than "and" or "or".');
    expect(logicProblem({ operatorIdentifier: 'and', children: [] })).toBe('The logic has a group without children.');
    expect(logicProblem({ identifier: 'a' })).toBe('The logic has a condition without value.operator.');
    expect(logicProblem({ value: { operator: 'equals' } })).toBe('The logic has a condition without an identifier (property id).');
  });
});

describe('requiredEmail: the one email rule of the routes that take one (member add, /sandbox/users)', () => {
  it.each([
    [{}, undefined, { email: ['The email field is required.'] }],
    [{ email: '  ' }, undefined, { email: ['The email field is required.'] }],
    [{ email: 'not-an-email' }, undefined, { email: ['The email field must be a valid email address.'] }],
    [{ email: 42 }, undefined, { email: ['The email field must be a valid email address.'] }],
    [{ email: 'ada@example.com' }, 'ada@example.com', {}],
  ])('%j', (body, want, errors) => {
    const e = new Errors();
    expect(requiredEmail(e, body)).toBe(want);
    expect(e.map).toEqual(errors);
  });
});
