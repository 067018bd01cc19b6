// `email sandbox`: starts the local service and returns where it is and what
// it holds as its data; it serves until Ctrl-C (ctx.serve), then
// stops cleanly (state flushed) with exit 0.
import { resolve } from 'node:path';
import type { Context } from '../../context.js';
import type { Input, PeopleOut, Result } from '../define.js';
import { UsageError } from '../../core/errors.js';
import { isLoopbackHost } from '../../core/loopback.js';
import type { RunningSandbox, SandboxOptions, SandboxWebhookOption } from '../../sandbox/index.js';
import type { options } from './sandbox-options.js';

type SandboxInput = Input<{}, typeof options>;

function parseSandboxFlags(flags: SandboxInput, cwd: string): SandboxOptions {
  const options: SandboxOptions = { port: flags.port, host: flags.host };
  if (!flags.host.trim()) throw new UsageError('--host must not be empty');
  if (flags.state !== undefined) {
    if (!flags.state.trim()) throw new UsageError('--state needs a file path');
    options.statePath = resolve(cwd, flags.state);
  }
  if (flags.apiKey !== undefined) {
    if (!/^\S+$/.test(flags.apiKey)) throw new UsageError('--api-key must be a non-empty value without spaces');
    options.apiKey = flags.apiKey;
  }
  if (flags.latency !== undefined) options.latencyMs = flags.latency;
  if (flags.failRate !== undefined) options.failRate = flags.failRate;
  if (flags.rateLimit !== undefined) options.rateLimitPerSecond = flags.rateLimit;
  if (flags.webhook.length) {
    options.webhooks = flags.webhook.map((spec) => parseWebhook(spec, flags.webhookFormat));
  }
  if (flags.webhookInterval !== undefined) options.webhookIntervalMs = flags.webhookInterval;
  if (flags.webhookTolerance !== undefined) options.webhookToleranceMs = flags.webhookTolerance;
  if (flags.unsubscribes !== undefined) options.unsubscribesPerCampaign = flags.unsubscribes;
  return options;
}

function parseWebhook(spec: string, format: 'json' | 'xml'): SandboxWebhookOption {
  const eq = spec.indexOf('=');
  if (eq <= 0) throw new UsageError(`--webhook must be <listId>=<url>, got "${spec}"`);
  const listId = spec.slice(0, eq).trim();
  const url = spec.slice(eq + 1).trim();
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`--webhook ${listId}: "${url}" is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new UsageError(`--webhook ${listId}: the URL must be http:// or https://, got "${url}"`);
  }
  return { listId, url, format };
}

export async function sandboxCommand(flags: SandboxInput, ctx: Context): Promise<Result> {
  const options = parseSandboxFlags(flags, ctx.cwd);
  const { startSandbox, StateFileError, DEFAULT_API_KEY } = await import('../../sandbox/index.js');

  let sandbox: RunningSandbox;
  try {
    sandbox = await startSandbox({
      ...options,
      // Nobody reads recorded requests from the command line; a long import would only hold memory.
      recordRequests: false,
      onInternalError: (error, method, path) => ctx.log.warn(`internal error on ${method} ${path}: ${(error as Error)?.message ?? String(error)}`),
    });
  } catch (error) {
    if (error instanceof StateFileError) throw new UsageError(error.message);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new UsageError(`port ${options.port} on ${options.host} is in use; choose another with --port (0 picks a free one)`);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new UsageError(`cannot listen on --host ${options.host}`);
    throw error;
  }

  const unknownLists = (options.webhooks ?? []).filter((w) => !sandbox.state().lists[w.listId]).map((w) => w.listId);
  if (unknownLists.length > 0) {
    await sandbox.stop();
    throw new UsageError(`--webhook: no list ${unknownLists.join(', ')} in the sandbox (see the seeded lists with \`email sandbox\`)`);
  }

  const host = options.host ?? new URL(sandbox.url).hostname;
  if (!isLoopbackHost(host)) {
    const exposure =
      sandbox.apiKey === DEFAULT_API_KEY
        ? `its API key "${DEFAULT_API_KEY}" is fixed and public, so anyone who can reach this port can read and change the sandbox and make it send webhook deliveries`
        : 'requests and the API key travel unencrypted (http), so anyone who can reach this port or watch the network can use the sandbox';
    ctx.log.warn(`listening on ${host}, not only on this machine: ${exposure}`);
  }
  ctx.serve({
    ready: () => {
      for (const w of options.webhooks ?? []) ctx.log.info(`webhook: events of list ${w.listId} go to ${w.url} (${w.format})`);
      ctx.log.info(`\nUse it:  export EMAIL_BASE_URL=${sandbox.url} EMAIL_API_KEY=${sandbox.apiKey}`);
    },
    async stop() {
      ctx.log.info('stopping the sandbox…');
      await sandbox.stop();
    },
  });
  return { ...ready(sandbox, options), message: options.statePath ? `state saved to ${options.statePath}` : undefined };
}

/** What the sandbox holds once ready: for scripts exactly one line (CLI.md `sandbox`), so they can read the ids; for people, the same as text and tables. */
function ready(sandbox: RunningSandbox, options: SandboxOptions): Result {
  const seed = sandbox.seed;
  const data = {
    baseUrl: sandbox.url,
    apiKey: sandbox.apiKey,
    lists: seed.lists,
    campaigns: seed.campaigns,
    segments: seed.segments,
    smartEmails: seed.smartEmails,
  };
  const lines = [`Sandbox listening on ${sandbox.url}`, `API key: ${sandbox.apiKey}`];
  if (options.statePath) lines.push(`State file: ${options.statePath}`);
  const sections: [string, unknown[]][] = [
    ['Lists', seed.lists],
    ['Campaigns', seed.campaigns],
    ['Segments', seed.segments],
    ['Smart emails', seed.smartEmails],
  ];
  const people = async (_: unknown, out: PeopleOut) => {
    for (const line of lines) await out.line(line);
    for (const [title, rows] of sections) {
      await out.line('');
      await out.line(`${title}:`);
      await (rows.length ? out.table(rows) : out.line('  (none)'));
    }
  };
  return { data, people };
}
