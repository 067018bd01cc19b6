// The scripted server fails a test that scripted a reply nobody asked for: a
// test that expects a second request which never comes must not pass.
import { describe, expect, it } from 'vitest';
import { serve, startScriptedServer } from './scripted-server.js';

describe('scripted server', () => {
  it('close() fails naming the replies never used, after closing the server', async () => {
    const server = await startScriptedServer();
    server.reply({ status: 200, body: { first: true } }, { status: 503 }, { drop: true });
    expect((await fetch(server.url)).status).toBe(200);
    await expect(server.close()).rejects.toThrow(/2 scripted replies were never used: 503, drop/);
    await expect(fetch(server.url)).rejects.toThrow();
  });

  it('close() passes when every reply was used', async () => {
    const server = await startScriptedServer();
    server.reply({ status: 204 });
    expect((await fetch(server.url)).status).toBe(204);
    await expect(server.close()).resolves.toBeUndefined();
  });

  it('spare() marks replies a test scripts on purpose without needing them all', async () => {
    const server = await startScriptedServer();
    server.spare({ status: 500 }, { status: 500 });
    expect((await fetch(server.url)).status).toBe(500);
    await expect(server.close()).resolves.toBeUndefined();
  });

  it('serve() answers as its function says, records each request and counts those answered at once', async () => {
    const server = await serve((call, index) => ({ status: 200, body: { index, url: call.url }, delayMs: 50 }));
    const answers = await Promise.all(['/a', '/b', '/c'].map(async (path) => ((await (await fetch(server.url + path, { method: 'POST', body: path })).json()) as { url: string })));
    expect(answers.map((a) => a.url).sort()).toEqual(['/a', '/b', '/c']);
    expect(server.calls.map((c) => c.body).sort()).toEqual(['/a', '/b', '/c']);
    expect(server.maxInFlight).toBe(3);
    await server.close();
  });
});
