// The checks of `email doctor` (CLI.md "doctor"): what commonly goes wrong,
// in the order a user would look: the runtime, the config file and its
// permissions, which profile and base URL are in effect and why, name
// resolution, TCP, TLS, the key, and the clock. Each check reads only; none
// changes the configuration it reports on.
import { lookup } from 'node:dns/promises';
import { readFileSync, statSync } from 'node:fs';
import { connect as netConnect, isIP } from 'node:net';
import { connect as tlsConnect, type PeerCertificate } from 'node:tls';
import { checkKey } from '../../api/account.js';
import type { Context } from '../../context.js';
import { checkBaseUrl, chooseProfile, configDir, configDirProblem, configFilePath, keyStoreOf, readProfileKey, resolveCredentials, type ConfigData } from '../../core/config.js';
import { isLoopbackHost, loopbackAwareLookup } from '../../core/loopback.js';
import { ApiError, AuthError, CliError, NetworkError, RedirectError } from '../../core/errors.js';
import type { RawResponse } from '../../core/http.js';
import { maskKey } from '../../core/redact.js';

export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

export interface CheckResult {
  check: string;
  status: CheckStatus;
  detail: string;
  hint?: string;
}

/** package.json "engines" (and bin/email's check, which runs before anything else). */
export const MIN_NODE_VERSION = '20.18.1';
/**
 * When each Node line stops getting fixes (the Node.js release schedule,
 * github.com/nodejs/Release). A line past its date still runs the tool while
 * that costs nothing (CLI.md "runtime"), with a warning here. CI tests 22, 24
 * and 26 (.ci/run); a line newer than this table is taken as maintained.
 */
const NODE_END_OF_LIFE: Readonly<Record<number, string>> = {
  20: '2026-04-30',
  21: '2024-06-01',
  22: '2027-04-30',
  23: '2025-06-01',
  24: '2028-04-30',
  25: '2026-06-01',
  26: '2029-04-30',
};
/** Beyond this the clock is worth fixing: dates given to the service (--since, --from/--to) and TLS validity depend on it. */
const CLOCK_SKEW_WARN_MS = 60_000;
/** A certificate closer than this to its end is worth a warning. */
const CERT_EXPIRY_WARN_DAYS = 14;
const NETWORK_STEP_TIMEOUT_MS = 5_000;

export interface DoctorOutcome {
  results: CheckResult[];
  /** 401/403 from the service, or no key at all (CLI.md exit code 4). */
  authProblem: boolean;
}

const result = (check: string, status: CheckStatus, detail: string, hint?: string): CheckResult => (hint ? { check, status, detail, hint } : { check, status, detail });

export async function runChecks(ctx: Context): Promise<DoctorOutcome> {
  const results: CheckResult[] = [];
  let authProblem = false;
  const add = (r: CheckResult) => {
    results.push(r);
    return r;
  };

  add(checkNode(process.versions.node, new Date()));

  const config = inspectConfig(ctx.env);
  add(config.result);

  // Which key and base URL are in effect, and why.
  const input = { env: ctx.env, profileFlag: ctx.globals.profile, baseUrlFlag: ctx.globals.baseUrl, insecureHttp: ctx.globals.insecureHttp };
  let apiKey: string | undefined;
  let baseUrl: { value: string; source: string } | undefined;
  if (ctx.env.EMAIL_API_KEY) {
    apiKey = ctx.env.EMAIL_API_KEY;
    const ignored = ctx.globals.profile ? '--profile' : ctx.env.EMAIL_PROFILE ? 'EMAIL_PROFILE' : undefined;
    add(
      ignored
        ? result('profile', 'warn', `key ${maskKey(apiKey)} from env EMAIL_API_KEY; ${ignored} is ignored while it is set`, `unset EMAIL_API_KEY to use the profile named by ${ignored}`)
        : result('profile', 'ok', `key ${maskKey(apiKey)} from env EMAIL_API_KEY (profiles are not used)`),
    );
  } else if (config.data) {
    const chosen = chooseProfile(input, config.data);
    const why = chosen.chosenBy === 'flag' ? 'from --profile' : chosen.chosenBy === 'env' ? 'from EMAIL_PROFILE' : 'the default profile';
    const profile = config.data.profiles[chosen.name];
    const known = Object.keys(config.data.profiles);
    let keyProblem: CliError | undefined;
    try {
      apiKey = await readProfileKey(ctx.env, chosen.name, profile);
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      keyProblem = error;
    }
    if (keyProblem) {
      authProblem = true;
      add(result('profile', 'fail', `"${chosen.name}" (${why}): ${keyProblem.message}`, keyProblem.hint));
    } else if (apiKey) {
      // Where the key lives (CLI.md "auth login"): the keychain, or the config file, readable by you only.
      const where = keyStoreOf(profile) === 'keychain' ? 'in the keychain' : `in ${configFilePath(configDir(ctx.env))} (0600)`;
      add(result('profile', 'ok', `"${chosen.name}" (${why}), key ${maskKey(apiKey)} ${where}`));
    } else {
      authProblem = true;
      add(
        result(
          'profile',
          'fail',
          `${profile ? 'no key stored for' : 'no'} profile "${chosen.name}" (${why})${known.length ? `; profiles: ${known.join(', ')}` : ''}`,
          `run \`email auth login${chosen.name === 'default' ? '' : ` --profile ${chosen.name}`}\`, or set EMAIL_API_KEY and EMAIL_BASE_URL`,
        ),
      );
    }
  } else {
    add(result('profile', 'skip', 'the config file could not be read'));
  }

  // The base URL: as the commands resolve it when a key is there; otherwise the same precedence, so the network can still be checked.
  try {
    if (apiKey) {
      const creds = await resolveCredentials(input);
      baseUrl = { value: creds.baseUrl, source: creds.baseUrlSource };
    } else {
      const profileUrl = config.data ? config.data.profiles[chooseProfile(input, config.data).name]?.baseUrl : undefined;
      const [raw, source] = ctx.globals.baseUrl
        ? [ctx.globals.baseUrl, '--base-url']
        : profileUrl
          ? [profileUrl, 'the profile']
          : [ctx.env.EMAIL_BASE_URL, 'env EMAIL_BASE_URL'];
      if (raw) baseUrl = { value: checkBaseUrl(raw, ctx.globals.insecureHttp, source), source };
    }
    if (baseUrl) add(result('base URL', 'ok', `${baseUrl.value} (from ${baseUrl.source})`));
    else add(result('base URL', 'fail', 'none configured', 'pass --base-url <url>, set EMAIL_BASE_URL, or store one with `email auth login --base-url <url>`'));
  } catch (error) {
    add(result('base URL', 'fail', error instanceof Error ? error.message : String(error), 'fix the URL where it comes from (--base-url, EMAIL_BASE_URL or the profile)'));
  }

  if (!baseUrl) {
    for (const name of ['dns', 'tcp', 'tls', 'api key', 'clock']) add(result(name, 'skip', 'no usable base URL'));
    return { results, authProblem };
  }

  const url = new URL(baseUrl.value);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const timeoutMs = Math.min(ctx.globals.timeoutMs ?? NETWORK_STEP_TIMEOUT_MS, NETWORK_STEP_TIMEOUT_MS);

  const dns = add(await checkDns(host, ctx.signal));
  const tcp = dns.status === 'fail' ? add(result('tcp', 'skip', 'the name did not resolve')) : add(await checkTcp(host, port, timeoutMs, ctx.signal));
  const reachable = tcp.status === 'ok';
  let tls: CheckResult;
  if (url.protocol === 'http:') {
    tls = isLoopbackHost(url.hostname)
      ? add(result('tls', 'ok', 'plain http to loopback: ok (the key does not leave this machine)'))
      : add(result('tls', 'warn', `plain http to ${url.host}: the key travels in clear text (--insecure-http)`, 'use an https:// base URL'));
  } else if (!reachable) {
    tls = add(result('tls', 'skip', 'no TCP connection'));
  } else {
    tls = add(await checkTls(host, port, timeoutMs, ctx.now(), ctx.signal));
  }

  if (!apiKey) {
    authProblem = true;
    add(result('api key', 'fail', 'no key to check', 'run `email auth login`, or set EMAIL_API_KEY'));
    add(result('clock', 'skip', 'no answer from the service to compare with'));
    return { results, authProblem };
  }
  if (!reachable || tls.status === 'fail') {
    add(result('api key', 'skip', 'the service is not reachable'));
    add(result('clock', 'skip', 'no answer from the service to compare with'));
    return { results, authProblem };
  }

  const key = await checkApiKey(ctx, baseUrl.value, apiKey);
  add(key.result);
  authProblem ||= key.authProblem;
  add(key.response ? checkClock(key.response, key.sentAt, key.answeredAt) : result('clock', 'skip', 'no answer from the service to compare with'));
  return { results, authProblem };
}

/** The running Node against `engines`, and whether its line still gets fixes on `today`. */
export function checkNode(version: string, today: Date): CheckResult {
  if (compareVersions(version, MIN_NODE_VERSION) < 0) {
    return result('node', 'fail', `Node.js ${version} is older than ${MIN_NODE_VERSION}, the oldest this tool runs on`, 'install Node.js 24 LTS (or 22 LTS)');
  }
  const line = Number(version.split('.')[0]);
  const endOfLife = NODE_END_OF_LIFE[line];
  if (endOfLife && today.toISOString().slice(0, 10) > endOfLife) {
    return result(
      'node',
      'warn',
      `Node.js ${version}: the ${line} line reached its end of life on ${endOfLife} and gets no more security fixes; email still runs on it, but is tested on 22, 24 and 26`,
      'install Node.js 24 LTS (or 22 LTS)',
    );
  }
  return result('node', 'ok', `Node.js ${version}`);
}

function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}

const octal = (mode: number) => `0${(mode & 0o777).toString(8)}`;

/** CLI.md "config location": file mode 0600, directory 0700; read without opening the store, and nothing is created or changed. */
function inspectConfig(env: Readonly<Record<string, string | undefined>>): { result: CheckResult; data?: ConfigData } {
  const dir = configDir(env);
  const path = configFilePath(dir);
  const empty: ConfigData = { defaultProfile: 'default', profiles: {} };
  // A directory the commands refuse (others can write to it, someone else's, a link to nothing) fails here with the same words.
  const refused = configDirProblem(dir);
  if (refused) return { result: result('config file', 'fail', refused.message, refused.hint) };
  const dirStat = statOrUndefined(dir);
  if (!dirStat) return { result: result('config file', 'ok', `none yet (${path}); nothing stored`), data: empty };
  const fileStat = statOrUndefined(path);
  if (!fileStat) return { result: result('config file', 'ok', `none yet (${path}); nothing stored`), data: empty };
  let data: ConfigData;
  try {
    const raw = JSON.parse(readFileSync(path, 'utf8')) as Partial<ConfigData>;
    data = { defaultProfile: raw.defaultProfile ?? 'default', profiles: raw.profiles ?? {} };
  } catch (error) {
    return {
      result: result('config file', 'fail', `${path} cannot be read: ${(error as Error).message}`, 'fix the file, or move it away and run `email auth login` again'),
    };
  }
  const posix = process.platform !== 'win32';
  const problems: string[] = [];
  const hints: string[] = [];
  let status: CheckStatus = 'ok';
  if (posix && fileStat.mode & 0o077) {
    // Keys kept in the keychain are not in the file: then it is settings only, still worth keeping private.
    const stores = Object.values(data.profiles).map(keyStoreOf);
    const keysInFile = stores.includes('file');
    status = keysInFile ? 'fail' : 'warn';
    const readable = keysInFile ? 'the keys in it' : `it (it holds no key${stores.includes('keychain') ? ': they are in the keychain' : ''})`;
    problems.push(`the file is ${octal(fileStat.mode)}: other users can read ${readable}`);
    hints.push(`chmod 600 '${path}'`);
  }
  if (posix && dirStat.mode & 0o077) {
    if (status === 'ok') status = 'warn';
    problems.push(`the directory is ${octal(dirStat.mode)}, not 0700`);
    hints.push(`chmod 700 '${dir}'`);
  }
  if (posix && typeof process.getuid === 'function' && fileStat.uid !== process.getuid()) {
    if (status === 'ok') status = 'warn';
    problems.push(`the file belongs to user ${fileStat.uid}, not to you`);
    hints.push('run the tool as the user who logged in, or log in again as yourself');
  }
  const profiles = Object.keys(data.profiles);
  const summary = `${path} (${posix ? `file ${octal(fileStat.mode)}, directory ${octal(dirStat.mode)}; ` : ''}${profiles.length} profile${profiles.length === 1 ? '' : 's'}, default "${data.defaultProfile}")`;
  return { result: result('config file', status, problems.length ? `${summary}: ${problems.join('; ')}` : summary, hints.join('; ') || undefined), data };
}

function statOrUndefined(path: string) {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

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

async function checkDns(host: string, signal: AbortSignal): Promise<CheckResult> {
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

function checkTcp(host: string, port: number, timeoutMs: number, signal: AbortSignal): Promise<CheckResult> {
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

function checkTls(host: string, port: number, timeoutMs: number, now: Date, signal: AbortSignal): Promise<CheckResult> {
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

async function checkApiKey(
  ctx: Context,
  baseUrl: string,
  apiKey: string,
): Promise<{ result: CheckResult; authProblem: boolean; response?: RawResponse; sentAt: number; answeredAt: number }> {
  const sentAt = ctx.now().getTime();
  const started = performance.now();
  try {
    const client = await ctx.apiWith({ baseUrl, apiKey });
    const response = await checkKey(client);
    const answeredAt = ctx.now().getTime();
    return {
      result: result('api key', 'ok', `accepted (GET /email/clients/scheduled: ${response.status} in ${Math.round(performance.now() - started)} ms)`),
      authProblem: false,
      response,
      sentAt,
      answeredAt,
    };
  } catch (error) {
    const answeredAt = ctx.now().getTime();
    if (error instanceof AuthError) {
      const hint = error.status === 403 ? 'the account is suspended or out of credits; check it in the web app' : 'store a valid key with `email auth login` (or fix EMAIL_API_KEY)';
      return { result: result('api key', 'fail', `refused (${error.status}): ${error.message}`, hint), authProblem: true, sentAt, answeredAt };
    }
    if (error instanceof RedirectError) {
      // CLI.md "redirects": a proxy or a wrong base URL answered, so the key was not checked at all.
      const hint = error.location ? 'the base URL is not the service\'s; if the address it points to is, use that as the base URL' : 'the base URL is not the service\'s';
      return { result: result('api key', 'fail', error.message, hint), authProblem: false, sentAt, answeredAt };
    }
    if (error instanceof ApiError) {
      return { result: result('api key', 'fail', `GET /email/clients/scheduled answered ${error.status}: ${error.message}`, 'is the base URL the service\'s, including any path prefix?'), authProblem: false, sentAt, answeredAt };
    }
    if (error instanceof NetworkError || error instanceof CliError) {
      return { result: result('api key', 'fail', error.message, 'run again with --debug to see the request'), authProblem: false, sentAt, answeredAt };
    }
    throw error;
  }
}

export function checkClock(response: RawResponse, sentAt: number, answeredAt: number): CheckResult {
  const header = response.headers.date;
  const date = Array.isArray(header) ? header[0] : header;
  const serverMs = date ? Date.parse(date) : NaN;
  if (!date || Number.isNaN(serverMs)) return result('clock', 'warn', 'the service sent no Date header to compare with');
  // The Date header has whole seconds and was stamped somewhere during the round trip.
  const localMs = (sentAt + answeredAt) / 2;
  const skewMs = localMs - serverMs;
  const slackMs = 1000 + (answeredAt - sentAt) / 2;
  if (Math.abs(skewMs) <= slackMs) return result('clock', 'ok', 'in step with the service (within a second)');
  const text = `${formatDuration(Math.abs(skewMs))} ${skewMs > 0 ? 'ahead of' : 'behind'} the service`;
  if (Math.abs(skewMs) > CLOCK_SKEW_WARN_MS) {
    return result('clock', 'warn', `the local clock is ${text}`, 'turn on time synchronisation (e.g. `timedatectl set-ntp true`); dates and TLS checks depend on it');
  }
  return result('clock', 'ok', `the local clock is ${text} (under ${CLOCK_SKEW_WARN_MS / 1000} s)`);
}

function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  return `${(s / 3600).toFixed(1)} h`;
}
