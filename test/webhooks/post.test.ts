// Posting a delivery to a receiver (trigger, replay, listen --forward-to):
// what is read of the receiver's answer (CLI.md "answer size", issue 19.7).
import { describe, expect, it } from 'vitest';
import { ANSWER_PREFIX_BYTES, postBody } from '../../src/webhooks/post.js';
import { useCleanups } from '../helpers/cleanups.js';
import { startEndlessReceiver, startScriptedReceiver, waitUntil, within } from '../helpers/webhooks.js';

const cleanups = useCleanups();

describe('postBody', () => {
  it('reads a small prefix of an endless 200 answer, then drops the connection: 200 at once, long before the timeout', async () => {
    const receiver = await startEndlessReceiver(cleanups);
    // The bound is the point: before, the whole answer was read until the timeout (1.1 GB in 10 s).
    const outcome = await within(5_000, postBody(receiver.url, '{"Events":[],"ListID":"x"}', 'application/json', { timeoutMs: 30_000 }), 'the outcome');
    expect(outcome.status).toBe(200);
    expect(outcome.error).toBeUndefined();
    expect(outcome.answer).toMatch(/^a+$/);
    expect(outcome.answer!.length).toBeLessThanOrEqual(ANSWER_PREFIX_BYTES);
    await waitUntil(() => receiver.dropped() === 1, 'the connection to be dropped');
  });

  it('keeps the whole of a short answer for the log', async () => {
    const receiver = await startScriptedReceiver(cleanups);
    receiver.respondWith(500);
    const outcome = await postBody(receiver.url, '{}', 'application/json');
    expect(outcome).toMatchObject({ status: 500, answer: '' });
  });
});
