// `email doctor`'s network probes: resolution, TCP, TLS to the base URL's host. Below the HTTP
// core on purpose, so a failure is named where it happens (the name, the port, the certificate).
import { lookup } from 'node:dns/promises';
import { connect as netConnect, isIP } from 'node:net';
import { connect as tlsConnect, type PeerCertificate } from 'node:tls';
import { loopbackAwareLookup } from './loopback.js';

export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

export interface CheckResult {
  check: string;
  status: CheckStatus;
  detail: string;
  hint?: string;
}

export const checkResult = (check: string, status: CheckStatus, detail: string, hint?: string): CheckResult => (hint ? { check, status, detail, hint } : { check, status, detail });
const result = checkResult;

/** A certificate closer than this to its end is worth a warning. */
const CERT_EXPIRY_WARN_DAYS = 14;
/** The longest any one probe waits. */
export const NETWORK_STEP_TIMEOUT_MS = 5_000;

async function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`${what} took longer than ${ms / 1000}s`), { code: 'ETIMEDOUT' })), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export async function probeDns(host: string, signal: AbortSignal): Promise<CheckResult> {
  if (isIP(host)) return result('dns', 'ok', `${host} is an IP address: no lookup needed`);
  // CLI.md "--base-url": localhost is loopback and never looked up (the client answers it itself).
  if (host.toLowerCase() === 'localhost') return result('dns', 'ok', 'localhost is loopback (127.0.0.1, ::1): answered locally, not looked up');
  if (signal.aborted) return result('dns', 'skip', 'interrupted');
  const started = performance.now();
  try {
    const addresses = await withTimeout(lookup(host, { all: true }), NETWORK_STEP_TIMEOUT_MS, `resolving ${host}`);
    const list = addresses.map((a) => a.address);
    return result('dns', 'ok', `${host} → ${list.slice(0, 4).join(', ')}${list.length > 4 ? ', …' : ''} (${Math.round(performance.now() - started)} ms)`);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return result(
      'dns',
      'fail',
      `${host} does not resolve (${code ?? (error as Error).message})`,
      code === 'ENOTFOUND' ? 'check the spelling of the base URL; on a VPN or corporate network check that its DNS knows the name' : 'check the network connection and DNS settings',
    );
  }
}

export function probeTcp(host: string, port: number, timeoutMs: number, signal: AbortSignal): Promise<CheckResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = netConnect({ host, port, lookup: loopbackAwareLookup });
    const finish = (r: CheckResult) => {
      clearTimeout(timer);
      socket.destroy();
      signal.removeEventListener('abort', onAbort);
      resolve(r);
    };
    const onAbort = () => finish(result('tcp', 'skip', 'interrupted'));
    const timer = setTimeout(
      () => finish(result('tcp', 'fail', `no connection to ${host}:${port} within ${timeoutMs / 1000}s`, 'a firewall or proxy may be dropping the connection; check that the port is right')),
      timeoutMs,
    );
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once('connect', () => finish(result('tcp', 'ok', `connected to ${host}:${port} in ${Math.round(performance.now() - started)} ms`)));
    socket.once('error', (error: NodeJS.ErrnoException) =>
      finish(
        result(
          'tcp',
          'fail',
          `cannot connect to ${host}:${port}: ${error.code === 'ECONNREFUSED' ? 'connection refused' : (error.code ?? error.message)}`,
          error.code === 'ECONNREFUSED' ? 'nothing listens there: is the service (or `email sandbox`) running at this address and port?' : 'check the network connection, proxy and firewall',
        ),
      ),
    );
  });
}

export function probeTls(host: string, port: number, timeoutMs: number, now: Date, signal: AbortSignal): Promise<CheckResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = tlsConnect({ host, port, lookup: loopbackAwareLookup, servername: isIP(host) ? undefined : host, ALPNProtocols: ['http/1.1'] });
    const finish = (r: CheckResult) => {
      clearTimeout(timer);
      socket.destroy();
      signal.removeEventListener('abort', onAbort);
      resolve(r);
    };
    const onAbort = () => finish(result('tls', 'skip', 'interrupted'));
    const timer = setTimeout(() => finish(result('tls', 'fail', `no TLS handshake with ${host}:${port} within ${timeoutMs / 1000}s`, 'is this an https port?')), timeoutMs);
    signal.addEventListener('abort', onAbort, { once: true });
    socket.once('secureConnect', () => {
      const cert = socket.getPeerCertificate();
      const ms = Math.round(performance.now() - started);
      finish(describeCertificate(cert, socket.getProtocol() ?? 'TLS', ms, now));
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      const code = error.code ?? '';
      const untrusted = /SELF_SIGNED|UNABLE_TO_GET_ISSUER|UNABLE_TO_VERIFY|CERT_UNTRUSTED/.test(code);
      finish(
        result(
          'tls',
          'fail',
          `TLS with ${host}:${port} failed: ${error.message}${code && !error.message.includes(code) ? ` (${code})` : ''}`,
          untrusted
            ? 'the certificate is not trusted; if your network inspects TLS with its own CA, point NODE_EXTRA_CA_CERTS at that CA file'
            : code === 'CERT_HAS_EXPIRED'
              ? 'the certificate has expired (or the local clock is wrong)'
              : code === 'ERR_TLS_CERT_ALTNAME_INVALID'
                ? 'the certificate is for another name: check the host of the base URL'
                : 'check that the port speaks https',
        ),
      );
    });
  });
}

function describeCertificate(cert: PeerCertificate, protocol: string, ms: number, now: Date): CheckResult {
  const subject = cert.subject?.CN ?? cert.subjectaltname ?? 'unknown subject';
  const issuer = cert.issuer?.O ?? cert.issuer?.CN ?? 'unknown issuer';
  const validTo = cert.valid_to ? new Date(cert.valid_to) : undefined;
  const days = validTo ? Math.floor((validTo.getTime() - now.getTime()) / 86_400_000) : undefined;
  const detail = `${protocol}, certificate for ${subject} issued by ${issuer}${validTo ? `, valid until ${validTo.toISOString().slice(0, 10)}` : ''} (${ms} ms)`;
  if (days !== undefined && days < CERT_EXPIRY_WARN_DAYS) {
    return result('tls', 'warn', `${detail}: expires in ${days} day${days === 1 ? '' : 's'}`, 'the service certificate is about to expire; tell the service operator');
  }
  return result('tls', 'ok', detail);
}
