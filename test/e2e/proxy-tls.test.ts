// An https:// proxy whose certificate this machine does not trust is the proxy's failure, worded as
// such (exit 12, the proxy named with its password masked, a hint about the proxy's CA), never as
// the service's certificate; the service's own untrusted certificate through a working tunnel keeps
// the service's words (exit 11). From the built binary, through a real tinyproxy behind a TLS
// terminator (an https:// proxy as stunnel makes one), with certificates from a private CA made
// the way `formctl sandbox --tls` makes its own (src/api/proxy.ts, docs/security.md).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCertificates } from '../../src/sandbox/tls.js';
import { runFormctl, tempHome } from '../helpers/cli.js';
import { type TestSandbox, startTestSandbox } from '../helpers/sandbox.js';
import { TINYPROXY, type TlsFront, type Tinyproxy, startTinyproxy, startTlsFront } from '../helpers/tinyproxy.js';

// As in proxy.test.ts: skipped without tinyproxy on a developer's machine only, never in CI.
const IN_CI = /^(?!0$|false$)./i.test(process.env.CI ?? '');

/** The hint's tail the binary adds where the running Node has --use-system-ca (the tests run it with this Node). */
const SYSTEM_CA = process.allowedNodeEnvironmentFlags.has('--use-system-ca') ? ", or, if the CA is in the system's store, NODE_OPTIONS=--use-system-ca" : '';

describe.skipIf(!TINYPROXY && !IN_CI)("an https:// proxy's certificate (e2e, built binary, tinyproxy behind TLS)", () => {
  const home = tempHome();
  let work: string;
  let tinyproxy: Tinyproxy;
  /** The https:// proxy, its certificate for 127.0.0.1 from a private CA (proxyCa). */
  let proxy: TlsFront;
  /** Another one whose certificate names localhost only (its CA: misnamedCa). */
  let misnamed: TlsFront;
  let proxyCa: string;
  let misnamedCa: string;
  let sb: TestSandbox;
  let tlsSb: TestSandbox;
  /** A file holding both the proxy's CA and the https sandbox's: NODE_EXTRA_CA_CERTS takes one file. */
  let bothCas: string;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'formctl-proxy-ca-'));
    tinyproxy = await startTinyproxy();
    const certs = await makeCertificates(['127.0.0.1']);
    proxyCa = join(work, 'proxy-ca.pem');
    writeFileSync(proxyCa, certs.ca);
    proxy = await startTlsFront(tinyproxy.port, certs);
    const forLocalhost = await makeCertificates(['localhost']);
    misnamedCa = join(work, 'misnamed-ca.pem');
    writeFileSync(misnamedCa, forLocalhost.ca);
    misnamed = await startTlsFront(tinyproxy.port, forLocalhost);
    sb = await startTestSandbox({ seed: 3, allowPrivateWebhooks: true });
    tlsSb = await startTestSandbox({ tls: true, seed: 2 });
    bothCas = join(work, 'both.pem');
    writeFileSync(bothCas, `${certs.ca}\n${readFileSync(tlsSb.caFile!, 'utf8')}`);
  });
  afterAll(async () => {
    await Promise.allSettled([proxy?.close(), misnamed?.close(), tinyproxy?.stop(), sb?.close(), tlsSb?.close()]);
    home.cleanup();
    rmSync(work, { recursive: true, force: true });
  });

  const withCreds = () => proxy.url.replace('//', '//bob:pr0xyPw@');

  it('not trusted (its CA not given): exit 12, one line naming the proxy, password masked, and its CA in the hint; nothing reaches the proxy', async () => {
    const before = tinyproxy.connections().length;
    const r = await runFormctl(['workspace', 'list'], { env: { ...home.env, ...sb.env, HTTP_PROXY: withCreds() } });
    expect(r.stderr).toBe(
      `error: The proxy https://bob:***@127.0.0.1:${proxy.port} (HTTP_PROXY) presented a certificate from a CA this machine does not trust (UNABLE_TO_VERIFY_LEAF_SIGNATURE), so formctl did not send anything (GET /open/workspaces).\n` +
        `hint: If the proxy uses a private CA, set NODE_EXTRA_CA_CERTS to its CA file (PEM)${SYSTEM_CA}.\n`,
    );
    expect(r.code).toBe(12);
    expect(r.stdout).toBe('');
    expect(tinyproxy.connections().length).toBe(before);
  });

  it('not trusted, for an https:// service through HTTPS_PROXY (whose CA is given): the proxy is named, not the service', async () => {
    const r = await runFormctl(['workspace', 'list'], {
      env: { ...home.env, ...tlsSb.env, NODE_EXTRA_CA_CERTS: tlsSb.caFile!, HTTPS_PROXY: withCreds() },
    });
    expect(r.stderr).toBe(
      `error: The proxy https://bob:***@127.0.0.1:${proxy.port} (HTTPS_PROXY) presented a certificate from a CA this machine does not trust (UNABLE_TO_VERIFY_LEAF_SIGNATURE), so formctl did not send anything (GET /open/workspaces).\n` +
        `hint: If the proxy uses a private CA, set NODE_EXTRA_CA_CERTS to its CA file (PEM)${SYSTEM_CA}.\n`,
    );
    expect(r.code).toBe(12);
  });

  it('not trusted, with --debug: the same error, and neither the proxy password nor the token anywhere', async () => {
    const r = await runFormctl(['workspace', 'list', '--debug'], { env: { ...home.env, ...sb.env, HTTP_PROXY: withCreds() } });
    expect(r.code).toBe(12);
    expect(r.stderr).toContain(`error: The proxy https://bob:***@127.0.0.1:${proxy.port} (HTTP_PROXY) presented a certificate from a CA`);
    expect(r.stderr).not.toContain('pr0xyPw');
    expect(r.stderr).not.toContain(sb.env.FORMCTL_TOKEN);
  });

  it('not trusted, webhook send through it: exit 12, the same words', async () => {
    const secret = join(work, 'secret.txt');
    writeFileSync(secret, 'whsec_proxy_tls\n');
    const r = await runFormctl(['webhook', 'send', `${sb.url}/receiver`, '--secret-file', secret, '--json'], {
      env: { ...home.env, HTTP_PROXY: withCreds() },
    });
    expect(r.stderr).toBe(
      `error: The proxy https://bob:***@127.0.0.1:${proxy.port} (HTTP_PROXY) presented a certificate from a CA this machine does not trust (UNABLE_TO_VERIFY_LEAF_SIGNATURE), so formctl did not send anything (POST ${sb.url}/receiver).\n` +
        `hint: If the proxy uses a private CA, set NODE_EXTRA_CA_CERTS to its CA file (PEM)${SYSTEM_CA}.\n`,
    );
    expect(r.code).toBe(12);
  });

  it('trusted through NODE_EXTRA_CA_CERTS: the requests go through it', async () => {
    const before = tinyproxy.connections().length;
    const r = await runFormctl(['workspace', 'list', '--json', 'id'], {
      env: { ...home.env, ...sb.env, NODE_EXTRA_CA_CERTS: proxyCa, HTTP_PROXY: withCreds() },
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ id: 1 }]);
    expect(tinyproxy.connections().slice(before)).toEqual([`127.0.0.1:${new URL(sb.url).port}`]);
  });

  it('trusted, with an https:// service whose CA is in the same file: a tunnel to the service', async () => {
    const before = tinyproxy.connections().length;
    const r = await runFormctl(['workspace', 'list', '--json', 'id'], {
      env: { ...home.env, ...tlsSb.env, NODE_EXTRA_CA_CERTS: bothCas, HTTPS_PROXY: proxy.url },
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ id: 1 }]);
    expect(tinyproxy.connections().slice(before)).toEqual([`127.0.0.1:${new URL(tlsSb.url).port}`]);
  });

  it("trusted proxy, untrusted service: the tunnel is made, and the service's certificate keeps the service's words (exit 11)", async () => {
    const before = tinyproxy.connections().length;
    const handshakes = proxy.handshakes();
    const r = await runFormctl(['workspace', 'list'], { env: { ...home.env, ...tlsSb.env, NODE_EXTRA_CA_CERTS: proxyCa, HTTPS_PROXY: withCreds() } });
    expect(r.stderr).toBe(
      `error: 127.0.0.1:${new URL(tlsSb.url).port} presented a certificate from a CA this machine does not trust (UNABLE_TO_VERIFY_LEAF_SIGNATURE), so formctl did not send anything (GET /open/workspaces).\n` +
        `hint: If the service uses a private CA, set NODE_EXTRA_CA_CERTS to its CA file (PEM)${SYSTEM_CA}.\n`,
    );
    expect(r.code).toBe(11);
    expect(proxy.handshakes()).toBeGreaterThan(handshakes);
    expect(tinyproxy.connections().slice(before)).toEqual([`127.0.0.1:${new URL(tlsSb.url).port}`]);
  });

  it("a certificate for another name: exit 12, the proxy's TLS error", async () => {
    const r = await runFormctl(['workspace', 'list'], { env: { ...home.env, ...sb.env, NODE_EXTRA_CA_CERTS: misnamedCa, HTTP_PROXY: misnamed.url } });
    expect(r.stderr).toBe(
      `error: TLS error talking to the proxy https://127.0.0.1:${misnamed.port} (HTTP_PROXY): ERR_TLS_CERT_ALTNAME_INVALID (GET /open/workspaces).\n` +
        'hint: Its certificate is for another name: write the proxy in HTTP_PROXY with a name the certificate holds.\n',
    );
    expect(r.code).toBe(12);
  });

  it('https:// written for a proxy that speaks plain HTTP (here a plain HTTP server): exit 12, the hint says so', async () => {
    const plain = new URL(sb.url).port;
    const r = await runFormctl(['workspace', 'list'], { env: { ...home.env, ...sb.env, HTTP_PROXY: `https://127.0.0.1:${plain}` } });
    expect(r.stderr).toBe(
      `error: TLS error talking to the proxy https://127.0.0.1:${plain} (HTTP_PROXY): ERR_SSL_WRONG_VERSION_NUMBER (GET /open/workspaces).\n` +
        'hint: If it is a plain http:// proxy, write it so in HTTP_PROXY; else check its certificate (NODE_EXTRA_CA_CERTS for a private CA).\n',
    );
    expect(r.code).toBe(12);
  });

  // A plain HTTP proxy such as tinyproxy answers nothing to a TLS ClientHello: it waits for a request
  // line. The timeout runs out with the handshake to the proxy unfinished: the proxy's failure.
  const handshakeHint = (from: string): string =>
    `hint: If it is a plain http:// proxy, write it with http:// in ${from}; else check that the proxy is up, or raise --timeout.\n`;
  /**
   * What the user reads, either way tinyproxy takes the ClientHello: it reads up to a newline, so a
   * ClientHello with none waits for the timeout (the handshake never completes), and one whose random
   * bytes hold one gets tinyproxy's HTTP 400, which TLS reads as a wrong version. Both are exit 12,
   * the proxy named with its variable, the password masked. Returns whether the handshake timed out.
   */
  const expectHandshakeFailure = (stderr: string, before: string, shown: string, from: string, where: string): boolean => {
    const timedOut = `${before}error: The proxy ${shown} (${from}) did not complete a TLS handshake within 1 s (${where}).\n${handshakeHint(from)}`;
    const answered =
      `${before}error: TLS error talking to the proxy ${shown} (${from}): ERR_SSL_WRONG_VERSION_NUMBER (${where}).\n` +
      `hint: If it is a plain http:// proxy, write it so in ${from}; else check its certificate (NODE_EXTRA_CA_CERTS for a private CA).\n`;
    expect([timedOut, answered]).toContain(stderr);
    return stderr === timedOut;
  };

  it('https:// written for tinyproxy (it never answers the handshake), http:// service: exit 12 at --timeout, naming the proxy, password masked', async () => {
    const before = tinyproxy.requests().length;
    const r = await runFormctl(['workspace', 'list', '--timeout', '1'], {
      env: { ...home.env, ...sb.env, HTTP_PROXY: `https://bob:pr0xyPw@127.0.0.1:${tinyproxy.port}` },
    });
    const timedOut = expectHandshakeFailure(r.stderr, '', `https://bob:***@127.0.0.1:${tinyproxy.port}`, 'HTTP_PROXY', 'GET /open/workspaces');
    expect(r.code).toBe(12);
    expect(r.stdout).toBe('');
    if (timedOut) expect(tinyproxy.requests().length).toBe(before);
  });

  it("https:// written for tinyproxy, https:// service (sandbox --tls) through HTTPS_PROXY: the same, never the service's timeout", async () => {
    const r = await runFormctl(['workspace', 'list', '--timeout', '1'], {
      env: { ...home.env, ...tlsSb.env, NODE_EXTRA_CA_CERTS: tlsSb.caFile!, HTTPS_PROXY: `https://127.0.0.1:${tinyproxy.port}` },
    });
    expectHandshakeFailure(r.stderr, '', `https://127.0.0.1:${tinyproxy.port}`, 'HTTPS_PROXY', 'GET /open/workspaces');
    expect(r.code).toBe(12);
  });

  it('https:// written for tinyproxy, webhook send through it: exit 12, the same words', async () => {
    const r = await runFormctl(['webhook', 'send', `${tlsSb.url}/receiver`, '--timeout', '1'], {
      env: { ...home.env, NODE_EXTRA_CA_CERTS: tlsSb.caFile!, HTTPS_PROXY: `https://bob:pr0xyPw@127.0.0.1:${tinyproxy.port}` },
    });
    expectHandshakeFailure(
      r.stderr,
      'warning: no --secret-file: sending without an X-Webhook-Signature header.\n',
      `https://bob:***@127.0.0.1:${tinyproxy.port}`,
      'HTTPS_PROXY',
      `POST ${tlsSb.url}/receiver`,
    );
    expect(r.code).toBe(12);
  });
});
