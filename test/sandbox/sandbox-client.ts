// Test helper: a sandbox on a free loopback port and a tiny client that speaks
// real HTTP to it (global fetch, i.e. undici).
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/index.js';

export interface ApiAnswer<T = any> {
  status: number;
  headers: Headers;
  /** Parsed JSON, or undefined for an empty body. */
  body: T;
  text: string;
}

export interface SandboxClient {
  sandbox: RunningSandbox;
  call<T = any>(method: string, path: string, body?: unknown, opts?: { key?: string | null; rawBody?: string; headers?: Record<string, string> }): Promise<ApiAnswer<T>>;
}

export async function withSandbox(options: SandboxOptions = {}): Promise<SandboxClient> {
  const sandbox = await startSandbox({ port: 0, ...options });
  return {
    sandbox,
    async call(method, path, body, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers };
      const key = opts.key === undefined ? sandbox.apiKey : opts.key;
      if (key !== null) headers.Authorization = `Bearer ${key}`;
      let payload: string | undefined = opts.rawBody;
      if (payload === undefined && body !== undefined) payload = JSON.stringify(body);
      if (payload !== undefined) headers['Content-Type'] ??= 'application/json';
      const response = await fetch(`${sandbox.url}${path}`, { method, headers, body: payload });
      const text = await response.text();
      return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined, text };
    },
  };
}
