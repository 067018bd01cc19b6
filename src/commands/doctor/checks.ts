// Doctor's checks, in the order a user would look: runtime, config file,
// settings in effect, DNS, TCP, TLS, key, clock, stored defaults. Each reads
// what the earlier ones found; none changes what it reports on.
import type { Context } from '../../context.js';
import { isLoopbackHost } from '../../core/loopback.js';
import { checkResult as result, NETWORK_STEP_TIMEOUT_MS, probeDns, probeTcp, probeTls, type CheckResult } from '../../core/probes.js';
import type { RawResponse } from '../../core/http.js';
import { keySourceOf, refusedKeyHint, resolveSettings, type ResolvedSettings } from '../../core/settings.js';
import { inspectConfig, type ConfigInspection } from './config-file.js';
import { checkApiKey } from './key-check.js';
import { checkClock, checkNode } from './runtime.js';
import { checkBaseUrlSetting, checkDefaults, checkProfile } from './settings-checks.js';

export type { CheckResult, CheckStatus } from '../../core/probes.js';
export { checkClock, checkNode, MIN_NODE_VERSION } from './runtime.js';

export interface DoctorOutcome {
  results: CheckResult[];
  /** 401/403 from the service, or no key at all: exit 4. */
  authProblem: boolean;
}

interface Findings {
  ctx: Context;
  config?: ConfigInspection;
  settings?: ResolvedSettings;
  url?: URL;
  byName: Map<string, CheckResult>;
  authProblem: boolean;
  answer?: { response: RawResponse; sentAt: number; answeredAt: number };
}

type Validator = (f: Findings) => CheckResult | Promise<CheckResult>;

const NO_ANSWER = 'no answer from the service to compare with';
const statusOf = (f: Findings, check: string) => f.byName.get(check)?.status;
const stepTimeout = (f: Findings) => Math.min(f.ctx.globals.timeoutMs ?? NETWORK_STEP_TIMEOUT_MS, NETWORK_STEP_TIMEOUT_MS);
const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');
const portOf = (url: URL) => Number(url.port || (url.protocol === 'https:' ? 443 : 80));

const VALIDATORS: Validator[] = [
  () => checkNode(process.versions.node, new Date()),

  (f) => {
    f.config = inspectConfig(f.ctx.env);
    return f.config.result;
  },

  async (f) => {
    const { ctx } = f;
    const input = { env: ctx.env, profileFlag: ctx.globals.profile, baseUrlFlag: ctx.globals.baseUrl, insecureHttp: ctx.globals.insecureHttp, signal: ctx.signal };
    // An unusable config file is read as no profiles: the environment and flags still say what they can.
    f.settings = await resolveSettings(input, { path: f.config!.path, data: f.config!.data });
    if (!f.config!.data && f.settings.profile.consulted) return result('profile', 'skip', 'the config file could not be read');
    const profile = checkProfile(f.settings, f.config!.path);
    f.authProblem ||= profile.authProblem;
    return profile.result;
  },

  (f) => {
    const base = checkBaseUrlSetting(f.settings!, f.ctx.globals.insecureHttp);
    f.url = base.url;
    return base.result;
  },

  (f) => (f.url ? probeDns(hostOf(f.url), f.ctx.signal) : result('dns', 'skip', 'no usable base URL')),

  (f) => {
    if (!f.url) return result('tcp', 'skip', 'no usable base URL');
    if (statusOf(f, 'dns') === 'fail') return result('tcp', 'skip', 'the name did not resolve');
    return probeTcp(hostOf(f.url), portOf(f.url), stepTimeout(f), f.ctx.signal);
  },

  (f) => {
    if (!f.url) return result('tls', 'skip', 'no usable base URL');
    if (f.url.protocol === 'http:') {
      return isLoopbackHost(f.url.hostname)
        ? result('tls', 'ok', 'plain http to loopback: ok (the key does not leave this machine)')
        : result('tls', 'warn', `plain http to ${f.url.host}: the key travels in clear text (--insecure-http)`, 'use an https:// base URL');
    }
    if (statusOf(f, 'tcp') !== 'ok') return result('tls', 'skip', 'no TCP connection');
    return probeTls(hostOf(f.url), portOf(f.url), stepTimeout(f), f.ctx.now(), f.ctx.signal);
  },

  async (f) => {
    if (!f.url) return result('api key', 'skip', 'no usable base URL');
    const apiKey = f.settings?.apiKey?.value;
    if (!apiKey) {
      f.authProblem = true;
      return result('api key', 'fail', 'no key to check', 'run `email auth login`, or set EMAIL_API_KEY');
    }
    if (statusOf(f, 'tcp') !== 'ok' || statusOf(f, 'tls') === 'fail') return result('api key', 'skip', 'the service is not reachable');
    const hint = refusedKeyHint(keySourceOf(f.settings!, f.settings!.apiKey!));
    const key = await checkApiKey(f.ctx, f.url.toString().replace(/\/+$/, ''), apiKey, hint);
    f.authProblem ||= key.authProblem;
    if (key.response) f.answer = { response: key.response, sentAt: key.sentAt, answeredAt: key.answeredAt };
    return key.result;
  },

  (f) => {
    if (!f.url) return result('clock', 'skip', 'no usable base URL');
    return f.answer ? checkClock(f.answer.response, f.answer.sentAt, f.answer.answeredAt) : result('clock', 'skip', NO_ANSWER);
  },

  (f) => checkDefaults(f.settings!, f.config!.data, f.ctx.env),
];

export async function runChecks(ctx: Context): Promise<DoctorOutcome> {
  const findings: Findings = { ctx, byName: new Map(), authProblem: false };
  const results: CheckResult[] = [];
  for (const validate of VALIDATORS) {
    const r = await validate(findings);
    findings.byName.set(r.check, r);
    results.push(r);
  }
  return { results, authProblem: findings.authProblem };
}
