import { describe, expect, it } from 'vitest';
import { type AttemptOutcome, type Method, type RetryDecision, retryDecision } from '../../../src/api/retry.js';

const net = (code: string | undefined, sent = true, loopback = false): AttemptOutcome => ({ kind: 'network', code, sent, loopback });
const http = (status: number, retryAfterMs?: number): AttemptOutcome => ({ kind: 'status', status, retryAfterMs });
const retry = (delayMs: number, mayHaveApplied: boolean): RetryDecision => ({ retry: true, delayMs, mayHaveApplied });
const give = (reason: 'final' | 'may-have-applied' | 'attempts' | 'max-wait'): RetryDecision => ({ retry: false, reason });

// [what, method, attempt, outcome, onceOnly, waitLeftMs, decision]; the backoff is always 400 ms.
const table: Array<[string, Method, number, AttemptOutcome, boolean, number, RetryDecision]> = [
  // Statuses
  ['429 on a POST: refused before the service acted', 'POST', 1, http(429, 2000), false, 60_000, retry(2000, false)],
  ['429 without Retry-After: backoff', 'GET', 1, http(429), false, 60_000, retry(400, false)],
  ['429 even for a request sent once only', 'PUT', 1, http(429, 1000), true, 60_000, retry(1000, false)],
  ['429 past MAX_ATTEMPTS: still, within --max-wait', 'GET', 50, http(429, 1000), false, 60_000, retry(1000, false)],
  ['429 at 105 attempts: given up', 'GET', 105, http(429, 1000), false, 60_000, give('attempts')],
  ['429 asking longer than --max-wait leaves', 'GET', 1, http(429, 120_000), false, 60_000, give('max-wait')],
  ['429 asking exactly what is left', 'GET', 1, http(429, 60_000), false, 60_000, retry(60_000, false)],
  ['503 on a GET: may have applied', 'GET', 1, http(503), false, 60_000, retry(400, true)],
  ['502 on a DELETE', 'DELETE', 2, http(502), false, 60_000, retry(400, true)],
  ['504 honours Retry-After', 'PUT', 1, http(504, 3000), false, 60_000, retry(3000, true)],
  ['503 on a POST: not idempotent', 'POST', 1, http(503), false, 60_000, give('final')],
  ['503 on a PATCH: not idempotent', 'PATCH', 1, http(503), false, 60_000, give('final')],
  ['503 for a request sent once only', 'PUT', 1, http(503), true, 60_000, give('final')],
  ['500 is final', 'GET', 1, http(500), false, 60_000, give('final')],
  ['404 is final', 'GET', 1, http(404), false, 60_000, give('final')],
  ['503 at the 5th attempt', 'GET', 5, http(503), false, 60_000, give('attempts')],
  ['503 at the 4th attempt', 'GET', 4, http(503), false, 60_000, retry(400, true)],
  ['503 with no wait left', 'GET', 1, http(503), false, 0, give('max-wait')],
  ['503 when the command never waits', 'GET', 1, http(503), false, Number.NEGATIVE_INFINITY, give('max-wait')],
  ['429 asking no wait when the command never waits', 'GET', 1, http(429, 0), false, Number.NEGATIVE_INFINITY, give('max-wait')],
  // Network failures
  ['reset connection on a GET', 'GET', 1, net('ECONNRESET'), false, 60_000, retry(400, true)],
  ['refused remote connection: not sent', 'GET', 1, net('ECONNREFUSED', false), false, 60_000, retry(400, false)],
  ['refused loopback connection: nothing listens there', 'GET', 1, net('ECONNREFUSED', false, true), false, 60_000, give('final')],
  ['reset connection on a POST', 'POST', 1, net('ECONNRESET'), false, 60_000, give('final')],
  ['refused connection on a POST: not sent, still not idempotent', 'POST', 1, net('ECONNREFUSED', false), false, 60_000, give('final')],
  ['sent once only, lost after sending', 'PUT', 1, net('ECONNRESET'), true, 60_000, give('may-have-applied')],
  ['sent once only, failed before sending', 'PUT', 1, net('EAI_AGAIN', false), true, 60_000, retry(400, false)],
  ['temporary DNS failure', 'GET', 1, net('EAI_AGAIN', false), false, 60_000, retry(400, false)],
  ['unknown host', 'GET', 1, net('ENOTFOUND', false), false, 60_000, give('final')],
  ['connect timeout', 'GET', 1, net('UND_ERR_CONNECT_TIMEOUT', false), false, 60_000, give('final')],
  ['headers timeout', 'GET', 1, net('UND_ERR_HEADERS_TIMEOUT'), false, 60_000, give('final')],
  ['exchange timeout', 'GET', 1, net('FORMCTL_EXCHANGE_TIMEOUT'), false, 60_000, give('final')],
  ['untrusted certificate', 'GET', 1, net('DEPTH_ZERO_SELF_SIGNED_CERT'), false, 60_000, give('final')],
  // A server certificate signed by a CA the machine does not know (a private CA), sent without the CA.
  ['certificate from an unknown CA', 'GET', 1, net('UNABLE_TO_VERIFY_LEAF_SIGNATURE', false), false, 60_000, give('final')],
  ['certificate for another host', 'GET', 1, net('ERR_TLS_CERT_ALTNAME_INVALID', false), false, 60_000, give('final')],
  ['certificate that is not a CA signing another', 'GET', 1, net('INVALID_CA', false), false, 60_000, give('final')],
  ['malformed HTTP', 'GET', 1, net('HPE_INVALID_CONSTANT'), false, 60_000, give('final')],
  ['Content-Length mismatch', 'GET', 1, net('UND_ERR_RES_CONTENT_LENGTH_MISMATCH'), false, 60_000, give('final')],
  ['a port fetch blocks', 'GET', 1, net('FETCH_BAD_PORT', false), false, 60_000, give('final')],
  ["Node's permission model refuses the network", 'GET', 1, net('ERR_ACCESS_DENIED', false), false, 60_000, give('final')],
  ['unknown code', 'GET', 1, net(undefined), false, 60_000, retry(400, true)],
  ['reset at the 5th attempt', 'GET', 5, net('ECONNRESET'), false, 60_000, give('attempts')],
  ['reset, backoff longer than what is left', 'GET', 1, net('ECONNRESET'), false, 399, give('max-wait')],
];

describe('retryDecision: the one retry rule', () => {
  it.each(table)('%s', (_what, method, attempt, outcome, onceOnly, waitLeftMs, decision) => {
    expect(retryDecision({ method, attempt, outcome, onceOnly, backoffMs: 400, waitLeftMs })).toEqual(decision);
  });
});
