import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withSandbox, type SandboxClient } from './sandbox-client.js';

let client: SandboxClient;
beforeAll(async () => {
  client = await withSandbox();
});
afterAll(async () => {
  await client.sandbox.stop();
});

describe('sandbox server', () => {
  it('answers an unknown route with a 404 status body naming the method and path', async () => {
    const answer = await client.call('GET', '/email/nothing/here');
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ status: 404, message: 'No such endpoint: GET /email/nothing/here' });
  });

  it('answers a missing key with 401 in the status shape', async () => {
    const answer = await client.call('GET', '/email/nothing', undefined, { key: null });
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ status: 401 });
    expect(typeof answer.body.message).toBe('string');
  });
});
