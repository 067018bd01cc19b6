// The sandbox's store (src/sandbox/store.ts) behind --state: everything
// persists (atomic writes), a restart continues where the previous run
// stopped, and a run killed with SIGKILL never leaves a corrupt file.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_LIST_IDS, StateFileError, startSandbox } from '../../src/sandbox/index.js';
import { readStateFile } from '../../src/sandbox/store.js';
import { builtSandbox } from '../helpers/sandbox-bundle.js';
import { withSandbox } from '../helpers/sandbox.js';
import { startScriptedReceiver, waitUntil } from '../helpers/webhooks.js';

const NEWSLETTER = SEED_LIST_IDS.newsletter;
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'email-sandbox-state-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});
const statePath = (name: string) => join(dir, name);

describe('state file', () => {
  it('a restart continues where the previous run stopped', async () => {
    const path = statePath('restart.json');
    const first = await withSandbox({ statePath: path });
    await first.call('POST', `/email/subscribers/${NEWSLETTER}`, { EmailAddress: 'kept@example.com', Name: 'Kept', CustomFields: [], ConsentToTrack: 'Yes', Resubscribe: false });
    await first.call('PUT', `/email/subscribers/${NEWSLETTER}?email=ada@example.com`, { EmailAddress: 'ada@example.com', Name: 'Ada Changed', CustomFields: [], ConsentToTrack: 'No' });
    await first.call('POST', `/email/lists/${NEWSLETTER}/customfields`, { FieldName: 'Nickname', DataType: 'Text', VisibleInPreferenceCenter: true });
    first.sandbox.suspendAccount(true);
    await first.sandbox.stop();

    const second = await withSandbox({ statePath: path });
    try {
      const state = second.sandbox.state();
      expect(state.lists[NEWSLETTER].Subscribers['kept@example.com'].Name).toBe('Kept');
      expect(state.lists[NEWSLETTER].Subscribers['ada@example.com'].Name).toBe('Ada Changed');
      expect(state.lists[NEWSLETTER].CustomFields.map((f) => f.Key)).toContain('[Nickname]');
      expect((await second.call('GET', '/email/clients/listsforemail?email=kept@example.com')).status).toBe(403);
    } finally {
      await second.sandbox.stop();
    }
  });

  it('writes soon after a change, without waiting for stop, with mode 0600', async () => {
    const path = statePath('debounce.json');
    const c = await withSandbox({ statePath: path });
    try {
      await c.call('POST', `/email/subscribers/${NEWSLETTER}`, { EmailAddress: 'soon@example.com', Name: 'Soon', CustomFields: [], ConsentToTrack: 'Yes', Resubscribe: false });
      await waitUntil(() => {
        try {
          return readFileSync(path, 'utf8').includes('soon@example.com');
        } catch {
          return false;
        }
      }, 'the state file to hold the new subscriber');
      if (process.platform !== 'win32') expect(statSync(path).mode & 0o777).toBe(0o600);
    } finally {
      await c.sandbox.stop();
    }
  });

  it('without a state file, state lives in memory and starts from the seed', async () => {
    const first = await withSandbox();
    await first.call('POST', `/email/subscribers/${NEWSLETTER}`, { EmailAddress: 'gone@example.com', Name: 'Gone', CustomFields: [], ConsentToTrack: 'Yes', Resubscribe: false });
    await first.sandbox.stop();
    const second = await withSandbox();
    await second.sandbox.stop();
    expect(second.sandbox.state().lists[NEWSLETTER].Subscribers['gone@example.com']).toBeUndefined();
  });

  it('refuses an unreadable file with a clear error instead of replacing it', async () => {
    const path = statePath('garbage.json');
    writeFileSync(path, '{"version": 1, "lists": {');
    await expect(startSandbox({ statePath: path })).rejects.toThrow(StateFileError);
    await expect(startSandbox({ statePath: path })).rejects.toThrow(/not valid JSON/);
    expect(readFileSync(path, 'utf8')).toBe('{"version": 1, "lists": {');
  });

  it('refuses a state file it cannot write, at start', async () => {
    await expect(startSandbox({ statePath: join(dir, 'no-such-dir', 'state.json') })).rejects.toThrow(/cannot write state file/);
  });

  it('writes the seeded state at once when the file does not exist yet', async () => {
    const path = statePath('fresh.json');
    const s = await startSandbox({ statePath: path });
    try {
      expect(readStateFile(path)?.lists[NEWSLETTER].Name).toBe('Newsletter');
    } finally {
      await s.stop();
    }
  });

  it('refuses a JSON file that is not a sandbox state', async () => {
    const path = statePath('foreign.json');
    writeFileSync(path, '{"name": "something else"}');
    await expect(startSandbox({ statePath: path })).rejects.toThrow(/not a sandbox state file/);
  });

  it('removes temporary files left by a killed writer', async () => {
    const path = statePath('leftover.json');
    writeFileSync(join(dir, '.leftover.json.tmp-999-1'), '{"partial');
    const s = await startSandbox({ statePath: path });
    await s.stop();
    expect(readdirSync(dir).filter((n) => n.startsWith('.leftover.json.tmp-'))).toEqual([]);
    expect(readStateFile(path)).toBeDefined();
  });

  it('keeps undelivered webhook events across a restart and delivers them afterwards', async () => {
    const path = statePath('webhooks.json');
    const receiver = await startScriptedReceiver();
    try {
      receiver.respondWith(500);
      const webhooks = [{ listId: NEWSLETTER, url: receiver.url, format: 'json' as const }];
      const first = await withSandbox({ statePath: path, webhooks, webhookIntervalMs: 20 });
      await first.call('POST', `/email/subscribers/${NEWSLETTER}`, { EmailAddress: 'later@example.com', Name: 'L', CustomFields: [], ConsentToTrack: 'Yes', Resubscribe: false });
      await waitUntil(() => receiver.requests.length >= 1, 'a failed delivery');
      await first.sandbox.stop();
      receiver.respondWith(200);
      const second = await withSandbox({ statePath: path, webhooks, webhookIntervalMs: 20 });
      try {
        expect(second.sandbox.webhooks()).toHaveLength(1);
        await waitUntil(() => receiver.acceptedEvents().length === 1, 'the delivery after restart');
        expect(receiver.acceptedEvents()[0].EmailAddress).toBe('later@example.com');
      } finally {
        await second.sandbox.stop();
      }
    } finally {
      await receiver.close();
    }
  });
});

describe('SIGKILL', () => {
  let moduleUrl: string;
  beforeAll(() => {
    moduleUrl = builtSandbox().moduleUrl;
  });

  function spawnNode(script: string): ChildProcess {
    const scriptPath = join(dir, `child-${Math.random().toString(36).slice(2)}.mjs`);
    writeFileSync(scriptPath, script);
    return spawn(process.execPath, [scriptPath], { stdio: ['ignore', 'pipe', 'inherit'] });
  }

  function firstLine(child: ChildProcess): Promise<string> {
    return new Promise((resolve, reject) => {
      let buffer = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        buffer += chunk.toString();
        const nl = buffer.indexOf('\n');
        if (nl >= 0) resolve(buffer.slice(0, nl));
      });
      child.once('exit', (code) => reject(new Error(`child exited (${code}) before it was ready`)));
    });
  }

  function killed(child: ChildProcess): Promise<void> {
    return new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }

  it('a sandbox killed during imports leaves a complete state file holding only whole imports', async () => {
    const path = statePath('killed.json');
    let acknowledged = 0;
    for (let round = 0; round < 3; round++) {
      const child = spawnNode(
        `import { startSandbox } from ${JSON.stringify(moduleUrl)};\n` +
          `const s = await startSandbox({ port: 0, statePath: ${JSON.stringify(path)} });\n` +
          `process.stdout.write(s.url + '\\n');\n`,
      );
      const url = await firstLine(child);
      // Keep imports flowing so the sandbox writes the growing state again and again, then kill it mid-flight.
      let stop = false;
      let roundAcknowledged = 0;
      const pump = (async () => {
        for (let batch = 0; !stop; batch++) {
          const Subscribers = Array.from({ length: 1000 }, (_, i) => ({ EmailAddress: `r${round}-b${batch}-${i}@example.com`, Name: 'K', CustomFields: [], ConsentToTrack: 'Yes' }));
          try {
            const res = await fetch(`${url}/email/subscribers/${NEWSLETTER}/import`, {
              method: 'POST',
              headers: { Authorization: 'Bearer sandbox-key', 'Content-Type': 'application/json' },
              body: JSON.stringify({ Subscribers, Resubscribe: false, QueueSubscriptionBasedAutoResponders: false }),
            });
            if (res.status === 200) {
              acknowledged += 1000;
              roundAcknowledged += 1000;
            }
            await res.arrayBuffer();
          } catch {
            return;
          }
        }
      })();
      // Kill once writes are under way, at a different moment each round.
      await waitUntil(() => roundAcknowledged >= 2000, 'two acknowledged imports', 20_000);
      await new Promise((r) => setTimeout(r, 50 + round * 113));
      await killed(child);
      stop = true;
      await pump;

      const state = readStateFile(path);
      expect(state).toBeDefined();
      const imported = Object.keys(state!.lists[NEWSLETTER].Subscribers).filter((k) => k.startsWith('r'));
      // Imports are applied whole between writes, so the file holds whole batches only.
      expect(imported.length % 1000).toBe(0);
      expect(imported.length).toBeLessThanOrEqual(acknowledged);
    }
    expect(acknowledged).toBeGreaterThan(0);
  });

  it('the state writer killed at random moments never leaves a corrupt file', async () => {
    const path = statePath('writer.json');
    const { STATE_VERSION } = await import('../../src/sandbox/types.js');
    // A large state so each write takes long enough to be interrupted.
    const script =
      `import { writeStateFile } from ${JSON.stringify(moduleUrl)};\n` +
      `const big = { version: ${STATE_VERSION}, accountSuspended: false, suppression: {}, webhooks: [], segments: {}, campaigns: {}, templates: {}, smartEmails: {}, sendRecords: [], previewLog: [], lists: {} };\n` +
      `const subs = {}; for (let i = 0; i < 60000; i++) subs['w' + i + '@example.com'] = { EmailAddress: 'w' + i + '@example.com', Name: 'Writer ' + i, State: 'Active', CustomFields: {}, ConsentToTrack: 'Yes', DateAdded: '2024-01-01T00:00:00.000Z', DateStateChanged: '2024-01-01T00:00:00.000Z', History: [] };\n` +
      `big.lists.l = { ListID: 'l', Name: 'L', ConfirmedOptIn: false, CustomFields: [], Subscribers: subs };\n` +
      `for (let n = 0; ; n++) { big.accountSuspended = n % 2 === 1; writeStateFile(${JSON.stringify(path)}, big); if (n === 0) process.stdout.write('ready\\n'); }\n`;
    for (let round = 0; round < 6; round++) {
      const child = spawnNode(script);
      await firstLine(child); // one complete write done; the next ones are under way
      await new Promise((r) => setTimeout(r, 20 + round * 37));
      await killed(child);
      let state;
      try {
        state = readStateFile(path);
      } catch (error) {
        throw new Error(`round ${round}: ${(error as Error).message}`);
      }
      expect(state).toBeDefined();
      expect(Object.keys(state!.lists.l.Subscribers)).toHaveLength(60000);
    }
  });
});
