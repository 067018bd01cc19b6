// A private Secret Service, for the keychain tests and the start-up bench
// (issue 21): a D-Bus session bus of its own (dbus-daemon with a
// configuration that activates no service, so nothing else is started on
// it) and, unless asked for a bus alone, gnome-keyring-daemon on that bus
// with an unlocked login keyring in a temporary HOME. Nothing touches the
// keychain of the user who runs the tests. Debian's packages dbus,
// gnome-keyring and libsecret-tools (`secret-tool`, which reads the keyring
// from outside the program) are installed by .ci/run. Plain JavaScript, so
// that bench/startup.bench.mjs runs it with node alone.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BUS_CONFIG = `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=@SOCKET@</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`;
const READY_TIMEOUT_MS = 10_000;
const missing = (tool) => spawnSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' }).status !== 0;

/**
 * Starts the bus (and the keyring, with `secretService`, the default).
 * Resolves `{ ok: true, session }`, or `{ ok: false, reason }` naming what
 * could not start, for the caller to print as the reason it skips.
 */
export async function startKeyringSession({ secretService = true } = {}) {
  const tools = ['dbus-daemon', 'dbus-send', ...(secretService ? ['gnome-keyring-daemon', 'secret-tool'] : [])];
  const absent = tools.filter(missing);
  if (absent.length) return { ok: false, reason: `${absent.join(', ')} not installed (Debian: apt-get install dbus gnome-keyring libsecret-tools)` };

  const dir = mkdtempSync(join(tmpdir(), 'email-keyring-'));
  const home = join(dir, 'home');
  const runtime = join(dir, 'run');
  mkdirSync(home, { mode: 0o700 });
  mkdirSync(runtime, { mode: 0o700 });
  const config = join(dir, 'bus.conf');
  writeFileSync(config, BUS_CONFIG.replace('@SOCKET@', join(dir, 'bus')));
  const children = [];
  const stop = () => {
    for (const child of children.reverse()) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      child.kill('SIGCONT');
      child.kill('SIGTERM');
    }
    rmSync(dir, { recursive: true, force: true });
  };

  let keyringDaemon;
  try {
    const bus = spawn('dbus-daemon', [`--config-file=${config}`, '--nofork', '--print-address=1'], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(bus);
    const address = await firstLine(bus, 'dbus-daemon');
    const env = { DBUS_SESSION_BUS_ADDRESS: address };
    const toolEnv = { PATH: process.env.PATH, HOME: home, XDG_RUNTIME_DIR: runtime, XDG_DATA_HOME: join(home, '.local', 'share'), ...env };
    const run = (cmd, args, input) => spawnSync(cmd, args, { env: toolEnv, input, encoding: 'utf8', timeout: READY_TIMEOUT_MS });

    if (secretService) {
      // --unlock reads the login keyring's password from stdin, creating the keyring when there is none.
      const keyring = spawn('gnome-keyring-daemon', ['--unlock', '--components=secrets', '--foreground'], { env: toolEnv, stdio: ['pipe', 'ignore', 'pipe'] });
      children.push(keyring);
      keyringDaemon = keyring;
      let keyringErr = '';
      keyring.stderr.on('data', (d) => (keyringErr += d));
      keyring.stdin.end('test-password\n');
      const deadline = Date.now() + READY_TIMEOUT_MS;
      for (;;) {
        const owner = run('dbus-send', ['--session', '--print-reply', '--dest=org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus.NameHasOwner', 'string:org.freedesktop.secrets']);
        if (/boolean true/.test(owner.stdout ?? '')) break;
        if (keyring.exitCode !== null) throw new Error(`gnome-keyring-daemon exited ${keyring.exitCode}: ${keyringErr.trim()}`);
        if (Date.now() > deadline) throw new Error(`gnome-keyring-daemon did not take org.freedesktop.secrets within ${READY_TIMEOUT_MS / 1000}s: ${keyringErr.trim()}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      // A round trip through the login keyring: stored, read back, removed.
      const probe = ['service', 'email-keyring-probe', 'username', 'probe'];
      const stored = run('secret-tool', ['store', '--label=probe', ...probe], 'probe-secret');
      const read = run('secret-tool', ['lookup', ...probe]);
      run('secret-tool', ['clear', ...probe]);
      if (stored.status !== 0 || read.stdout !== 'probe-secret') throw new Error(`the keyring does not keep a secret: ${(stored.stderr || read.stderr || '').trim()}`);
    }

    const attrs = (service, account) => ['service', service, 'username', account];
    return {
      ok: true,
      session: {
        env,
        /** The secret stored under this service and account (as @napi-rs/keyring names them), or null. */
        lookup(service, account) {
          const r = run('secret-tool', ['lookup', ...attrs(service, account)]);
          return r.status === 0 ? r.stdout : null;
        },
        /** Stores a secret from outside the program. */
        store(service, account, secret) {
          const r = run('secret-tool', ['store', `--label=${account}@${service}`, ...attrs(service, account)], secret);
          if (r.status !== 0) throw new Error(`secret-tool store failed: ${r.stderr}`);
        },
        /** Removes an entry from outside the program, as a user would in their keychain's manager. */
        clear(service, account) {
          run('secret-tool', ['clear', ...attrs(service, account)]);
        },
        /** Locks the login keyring; unlocking it again needs a prompt, which nobody answers here. */
        lock() {
          const r = run('dbus-send', ['--session', '--print-reply', '--dest=org.freedesktop.secrets', '/org/freedesktop/secrets', 'org.freedesktop.Secret.Service.Lock', 'array:objpath:/org/freedesktop/secrets/collection/login']);
          if (r.status !== 0) throw new Error(`locking the keyring failed: ${r.stderr}`);
        },
        /** Stops the Secret Service where it stands (SIGSTOP): it holds its name on the bus and answers nothing, as a hung daemon does. */
        freeze() {
          keyringDaemon?.kill('SIGSTOP');
        },
        /** Lets a frozen Secret Service run again. */
        thaw() {
          keyringDaemon?.kill('SIGCONT');
        },
        stop,
      },
    };
  } catch (error) {
    stop();
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

function firstLine(child, name) {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`${name} printed no address within ${READY_TIMEOUT_MS / 1000}s`)), READY_TIMEOUT_MS);
    child.stderr.on('data', (d) => (err += d));
    child.stdout.on('data', (d) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl >= 0) {
        clearTimeout(timer);
        resolve(out.slice(0, nl).trim());
      }
    });
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited ${code}: ${err.trim()}`));
    });
  });
}
