// For command tests of customfields, segments, campaigns, templates and
// transactional: a sandbox on a free loopback port, the CLI run in-process
// against it, and the requests it recorded, so a test can state exactly what
// went over the wire (or that nothing did).
import { expect } from 'vitest';
import { startSandbox, type RecordedRequest, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { runCli, type CliResult, type InProcessOptions } from './cli.js';

export interface CommandSandbox {
  sandbox: RunningSandbox;
  env: Record<string, string>;
  /** Runs `email <argv>` in-process against the sandbox. */
  email(argv: string[], options?: InProcessOptions): Promise<CliResult>;
  /** Runs the command and returns it with the requests it sent. */
  emailSent(argv: string[], options?: InProcessOptions): Promise<CliResult & { sent: RecordedRequest[] }>;
  /**
   * Runs a command that a client-side check must refuse: exit 2, the
   * service's code on stderr (when given), a message matching `message`, and
   * not one request sent (the sandbox's request count is unchanged).
   */
  expectRefused(argv: string[], code: number | undefined, message?: RegExp, options?: InProcessOptions): Promise<CliResult>;
  stop(): Promise<void>;
}

export async function startCommandSandbox(options: SandboxOptions = {}): Promise<CommandSandbox> {
  const sandbox = await startSandbox({ port: 0, ...options });
  const env = { EMAIL_BASE_URL: sandbox.url, EMAIL_API_KEY: sandbox.apiKey };
  const email = (argv: string[], o: InProcessOptions = {}) => runCli(argv, { ...o, env: { ...env, ...o.env } });
  return {
    sandbox,
    env,
    email,
    async emailSent(argv, o) {
      const before = sandbox.requestCount();
      const result = await email(argv, o);
      const count = sandbox.requestCount() - before;
      return { ...result, sent: count ? sandbox.requests.slice(-count) : [] };
    },
    async expectRefused(argv, code, message, o) {
      const before = sandbox.requestCount();
      const result = await email(argv, o);
      expect(result.code, `exit code of email ${argv.join(' ')}\nstderr: ${result.stderr}`).toBe(2);
      expect(sandbox.requestCount(), 'requests sent').toBe(before);
      expect(result.stdout).toBe('');
      if (code !== undefined) expect(result.stderr).toMatch(new RegExp(`^error ${code}: `));
      else expect(result.stderr).toMatch(/^error: /);
      if (message) expect(result.stderr).toMatch(message);
      return result;
    },
    stop: () => sandbox.stop(),
  };
}

/** The one error object `--json` prints on stderr. */
export function jsonError(stderr: string): { status: number | null; code: number | null; message: string; resultData?: unknown } {
  return JSON.parse(stderr.trim().split('\n').pop()!).error;
}
