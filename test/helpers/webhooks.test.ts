// The posters of test/helpers/webhooks.ts are clients like any other: one
// that adds a listener per chunk it waits on leaks, and Node says so with a
// MaxListenersExceededWarning in the test output (issue 19, point 11).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { streamPost } from './webhooks.js';

const warnings: Error[] = [];
const onWarning = (warning: Error) => warnings.push(warning);
afterEach(() => {
  process.off('warning', onWarning);
  warnings.length = 0;
});

it('streamPost waits out back-pressure many times without piling up listeners on its request', async () => {
  process.on('warning', onWarning);
  // A receiver that reads the whole body, then answers: each 64 KiB chunk over the
  // request's buffer waits for 'drain', far more than ten times for 4 MiB.
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { done } = streamPost(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { totalBytes: 4 * 1024 * 1024 });
    const answer = await done;
    expect(answer).toMatchObject({ status: 200, text: 'ok', finished: true });
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  // Node emits the warning on the next tick.
  await new Promise((resolve) => setImmediate(resolve));
  expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message)).toEqual([]);
});
