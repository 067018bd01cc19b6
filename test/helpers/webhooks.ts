// Test helpers for webhooks: `email webhooks listen` run in-process with
// captured output and a stop button, or as a real process (spawnListen), the one loopback receiver of the tests
// (it records every request and answers with scripted statuses, can hold a
// request open; the sandbox's deliveries and the trigger command's requests
// both go to it), and posters.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { run } from '../../src/cli.js';
import type { Writable } from '../../src/output/edges.js';
import type { Cleanups } from './cleanups.js';
import { BIN, requireBuild, tempConfigDir, type CliResult } from './cli.js';
import { drainOrClose } from './drain.js';

export interface RunningListen {
  url: string;
  stdout(): string;
  stderr(): string;
  /** Ctrl-C, then the command's result. */
  stop(): Promise<CliResult>;
}

export interface ListenOptions {
  /** Replaces the captured stdout (e.g. one that never drains). */
  stdout?: Writable;
  stdoutIsTTY?: boolean;
  cwd?: string;
  /** The clock (the names of saved deliveries carry the time of arrival). */
  now?: () => Date;
}

export async function startListen(args: string[], options: ListenOptions = {}): Promise<RunningListen> {
  let stdout = '';
  let stderr = '';
  const controller = new AbortController();
  const done = run(['webhooks', 'listen', '--port', '0', ...args], {
    io: {
      stdout: options.stdout ?? { write: (s) => ((stdout += String(s)), true) },
      stderr: { write: (s) => ((stderr += String(s)), true) },
      stdin: new PassThrough(),
      stdoutIsTTY: options.stdoutIsTTY ?? false,
      stderrIsTTY: false,
      stdinIsTTY: false,
      columns: options.stdoutIsTTY ? 160 : undefined,
    },
    env: { EMAIL_CONFIG_DIR: tempConfigDir() },
    cwd: options.cwd ?? process.cwd(),
    signal: controller.signal,
    now: options.now,
  });
  let early: number | undefined;
  void done.then((code) => (early = code));
  await waitUntil(() => /Listening on ([^\s"]+)["\s]/.test(stderr) || early !== undefined, 'the listener to start');
  if (early !== undefined) throw new Error(`listen exited ${early}: ${stderr}`);
  const url = /Listening on ([^\s"]+)["\s]/.exec(stderr)![1]!;
  return {
    url,
    stdout: () => stdout,
    stderr: () => stderr,
    stop: async () => {
      controller.abort();
      const code = await done;
      return { code, stdout, stderr };
    },
  };
}

export interface SpawnedListen {
  child: ChildProcess;
  url: string;
  stderr(): string;
}

/**
 * `bin/email webhooks listen --port 0 …args` as a real process, once it is
 * listening: for tests that read the process itself (its peak memory), which
 * startListen, in-process, cannot give. Killed after the test.
 */
export async function spawnListen(args: string[], cleanups: Cleanups, options: { stdout?: 'pipe' | 'ignore' } = {}): Promise<SpawnedListen> {
  requireBuild();
  const child = spawn(process.execPath, [BIN, 'webhooks', 'listen', '--port', '0', ...args], {
    env: { PATH: process.env.PATH, EMAIL_CONFIG_DIR: tempConfigDir() },
    stdio: ['ignore', options.stdout ?? 'ignore', 'pipe'],
  });
  cleanups.push(async () => void child.kill('SIGKILL'));
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  await waitUntil(() => /Listening on ([^\s"]+)["\s]/.test(stderr) || child.exitCode !== null || child.signalCode !== null, 'the listener to start', 20_000);
  const url = /Listening on ([^\s"]+)["\s]/.exec(stderr)?.[1];
  if (!url) throw new Error(`listen exited ${child.exitCode ?? child.signalCode}: ${stderr}`);
  return { child, url, stderr: () => stderr };
}

export async function post(url: string, body: string | Uint8Array, contentType?: string): Promise<{ status: number; text: string }> {
  const response = await fetch(url, { method: 'POST', body, headers: contentType ? { 'content-type': contentType } : {} });
  return { status: response.status, text: await response.text() };
}

/** A POST with headers exactly as given, Connection and Keep-Alive included (fetch refuses those). */
export function postWithHeaders(url: string, body: string, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

export interface StreamedPost {
  /** The receiver's status, when it answered. */
  status?: number;
  text: string;
  /** Body bytes handed to the socket before the answer came (or the connection closed). */
  bytesSent: number;
  /** Whether the whole body had been sent when the answer came. */
  finished: boolean;
}

export interface StreamedPostOptions {
  /** Total body size; the body is `chunk` repeated (and cut) to this length. */
  totalBytes: number;
  chunk?: Buffer;
  contentType?: string;
  /** Announce the size with Content-Length (default: chunked, size unknown in advance). */
  contentLength?: boolean;
  /** Send this many bytes, then keep the request open (neither more body nor its end) until release() or an answer. */
  holdAfter?: number;
}

/**
 * A POST whose body is written piece by piece, honouring back-pressure, and
 * that stops writing as soon as the receiver answers: what a well-behaved
 * client does when a server refuses a body early.
 */
export function streamPost(url: string, options: StreamedPostOptions): { done: Promise<StreamedPost>; release(): void; sent(): number } {
  const chunk = options.chunk ?? Buffer.alloc(64 * 1024, 'x');
  let bytesSent = 0;
  let answered = false;
  let releaseHold: (() => void) | undefined;
  const headers: Record<string, string | number> = { 'content-type': options.contentType ?? 'application/json' };
  if (options.contentLength) headers['content-length'] = options.totalBytes;
  const done = new Promise<StreamedPost>((resolve) => {
    let status: number | undefined;
    let text = '';
    const settle = () => resolve({ status, text, bytesSent, finished: bytesSent >= options.totalBytes });
    const req = request(url, { method: 'POST', headers }, (res) => {
      answered = true;
      status = res.statusCode;
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => {
        settle();
        req.destroy(); // the body will not be finished: this request is over
      });
      res.on('error', settle);
      releaseHold?.();
    });
    req.flushHeaders();
    req.on('error', () => (status === undefined ? settle() : undefined));
    req.on('close', () => (status === undefined ? settle() : undefined));
    let holdAt = options.holdAfter;
    void (async () => {
      while (bytesSent < options.totalBytes && !answered && !req.destroyed) {
        if (holdAt !== undefined && bytesSent >= holdAt) {
          await new Promise<void>((r) => (releaseHold = r));
          releaseHold = undefined;
          if (answered || req.destroyed) break;
          holdAt = undefined;
        }
        const limit = Math.min(options.totalBytes, holdAt ?? Infinity) - bytesSent;
        const piece = limit >= chunk.length ? chunk : chunk.subarray(0, limit);
        bytesSent += piece.length;
        if (!req.write(piece)) await drainOrClose(req);
      }
      if (!answered && !req.destroyed) req.end();
    })();
  });
  return { done, release: () => releaseHold?.(), sent: () => bytesSent };
}

export interface RecordedRequest {
  path: string;
  contentType?: string;
  /** Every header as received. */
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The body as UTF-8 text. */
  text: string;
  /** The parsed body of a JSON request (undefined for XML or a body that is not JSON). */
  json: any;
  /** The status answered. */
  status: number;
  /** performance.now() when the request headers arrived. */
  startedAt: number;
}

export interface ScriptedReceiver {
  url: string;
  requests: RecordedRequest[];
  /** Statuses for the next requests, in order; after them, the status of respondWith (200 unless set). */
  script(...statuses: number[]): void;
  /** The status answered once the scripted ones are used (default 200). */
  respondWith(status: number): void;
  /** The events of the JSON requests answered with a 2xx status, in order. */
  acceptedEvents(): any[];
  /** Headers to send with every answer (e.g. a Location for a scripted 302). */
  answerHeaders(headers: Record<string, string>): void;
  /** Holds every request open until release() (a slow target). */
  hold(): void;
  release(): void;
  /** Requests that arrived but have not been answered. */
  waiting(): number;
  close(): Promise<void>;
}

/** Starts the receiver; given a test file's cleanups (test/helpers/cleanups.ts), it is closed after the test. */
export async function startScriptedReceiver(cleanups?: Cleanups): Promise<ScriptedReceiver> {
  const requests: RecordedRequest[] = [];
  let statuses: number[] = [];
  let otherwise = 200;
  let extraHeaders: Record<string, string> = {};
  let holding = false;
  let held: (() => void)[] = [];
  const server: Server = createServer((req, res) => {
    const startedAt = performance.now();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const text = body.toString('utf8');
      const contentType = req.headers['content-type'];
      let json: any;
      if (contentType?.includes('json')) {
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
      }
      const status = statuses.shift() ?? otherwise;
      requests.push({ path: req.url ?? '', contentType, headers: req.headers, body, text, json, status, startedAt });
      const answer = () => res.writeHead(status, extraHeaders).end();
      if (holding) held.push(answer);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const receiver: ScriptedReceiver = {
    url: `http://127.0.0.1:${port}/hooks`,
    requests,
    script: (...s) => {
      statuses = s;
    },
    respondWith: (status) => {
      otherwise = status;
    },
    acceptedEvents: () => requests.filter((r) => r.status < 300 && r.json).flatMap((r) => r.json.Events),
    answerHeaders: (h) => {
      extraHeaders = h;
    },
    hold: () => {
      holding = true;
    },
    release: () => {
      holding = false;
      for (const answer of held) answer();
      held = [];
    },
    waiting: () => held.length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const answer of held) answer();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  cleanups?.push(() => receiver.close());
  return receiver;
}

/** Polls until the check passes (no fixed sleeps in tests). */
export async function waitUntil(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * A receiver that answers 200 and then a body that never ends, written as fast
 * as the client takes it (issue 19.7). Says how much it managed to write and
 * whether the client dropped the connection.
 */
export async function startEndlessReceiver(cleanups?: Cleanups): Promise<{ url: string; requests(): number; bytesWritten(): number; dropped(): number; close(): Promise<void> }> {
  let requests = 0;
  let bytesWritten = 0;
  let dropped = 0;
  const chunk = Buffer.alloc(16 * 1024, 'a');
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests++;
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.on('close', () => dropped++);
      const pump = () => {
        while (!res.destroyed) {
          bytesWritten += chunk.length;
          if (!res.write(chunk)) break;
        }
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const receiver = {
    url: `http://127.0.0.1:${port}/hooks`,
    requests: () => requests,
    bytesWritten: () => bytesWritten,
    dropped: () => dropped,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  cleanups?.push(() => receiver.close());
  return receiver;
}

export interface Trickle {
  /** The status line's code once the receiver answered, undefined while it has not. */
  status(): number | undefined;
  /** Resolves when the receiver answered or closed the connection. */
  ended: Promise<{ status?: number; closed: boolean }>;
  /** Bytes of body (or of headers, with headersOnly) sent so far. */
  sent(): number;
  stop(): void;
}

/**
 * A sender that trickles its request over a raw socket (issue 19.4): the
 * request line and headers (all of them, announcing `contentLength` bytes of
 * body) and then one body byte every `intervalMs`; or, with `headersOnly`,
 * the headers themselves one byte at a time, never finished.
 */
export function trickle(url: string, options: { intervalMs: number; contentLength?: number; headersOnly?: boolean }): Trickle {
  const target = new URL(url);
  const socket = connect(Number(target.port), target.hostname);
  let status: number | undefined;
  let received = '';
  const head = `POST ${target.pathname} HTTP/1.1\r\nHost: ${target.host}\r\nContent-Type: application/json\r\nContent-Length: ${options.contentLength ?? 1000}\r\n\r\n`;
  let timer: NodeJS.Timeout | undefined;
  let sent = 0;
  socket.once('connect', () => {
    if (!options.headersOnly) socket.write(head);
    timer = setInterval(() => {
      if (socket.destroyed) return;
      socket.write(options.headersOnly ? head.charAt(sent % (head.length - 4)) : '{');
      sent++;
    }, options.intervalMs);
  });
  const ended = new Promise<{ status?: number; closed: boolean }>((resolve) => {
    socket.on('data', (d: Buffer) => {
      received += d.toString('latin1');
      const m = /^HTTP\/1\.1 (\d{3})/.exec(received);
      if (m) status = Number(m[1]);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ status, closed: true });
    });
  });
  return {
    status: () => status,
    ended,
    sent: () => sent,
    stop: () => {
      clearInterval(timer);
      socket.destroy();
    },
  };
}

/** A JSON delivery of `events` events whose Names pad it to about `bytes` bytes (the bodies of issue 19.2: 8.8 MB, 1,000 events). */
export function paddedDelivery(bytes: number, events = 1000, listId = '11111111-1111-4111-8111-111111111111'): string {
  const name = 'n'.repeat(Math.max(0, Math.floor(bytes / events) - 110));
  return JSON.stringify({ Events: Array.from({ length: events }, (_, i) => ({ Type: 'Subscribe', Date: '2025-01-01 00:00:00', EmailAddress: `p${i}@example.com`, Name: name, CustomFields: [] })), ListID: listId });
}

/** The promise's value, or a failure naming `what` when it takes longer than `ms`: only for waits whose bound is the point of the test. */
export function within<T>(ms: number, promise: Promise<T>, what = 'the answer'): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not come within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
