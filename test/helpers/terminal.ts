// bin/email on a real terminal: a pty made by `script -qec`, 20 rows by 100
// columns unless a size is given, with no pager or colour variable of the developer's, and a
// recording pager (a shell command that writes what it reads to a file).
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, tempConfigDir } from './cli.js';

export const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The pty's size, and shell text before the command (e.g. `timeout -s INT 3`). */
export interface TerminalShape {
  rows?: number;
  cols?: number;
  before?: string;
}

/**
 * Runs `email <argv>` against `service` on the pty; `tail` is shell text after
 * the command (e.g. `| cat`). Returns what the terminal showed and the exit code.
 */
export function onTerminal(service: { url: string; apiKey: string }, argv: string[], env: Record<string, string>, tail = '', shape: TerminalShape = {}): Promise<{ screen: string; code: number }> {
  const { rows = 20, cols = 100, before = '' } = shape;
  const command = `stty rows ${rows} cols ${cols}; ${before} ${shellQuote(process.execPath)} ${shellQuote(BIN)} ${argv.map(shellQuote).join(' ')} ${tail}; echo "rc=$?"`;
  return new Promise((resolve, reject) => {
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('EMAIL_') && k !== 'PAGER' && k !== 'NO_COLOR' && k !== 'FORCE_COLOR'));
    const child = spawn('script', ['-qec', command, '/dev/null'], {
      env: { ...inherited, COLUMNS: String(cols), LINES: String(rows), EMAIL_BASE_URL: service.url, EMAIL_API_KEY: service.apiKey, EMAIL_CONFIG_DIR: tempConfigDir(), EMAIL_RETRY_BASE_MS: '5', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let screen = '';
    // Decoded as a stream: a character cut between two chunks would otherwise become two U+FFFD.
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (d) => (screen += d));
    child.stderr.on('data', (d) => (screen += d));
    child.on('error', reject);
    child.on('close', () => {
      const m = /rc=(\d+)/.exec(screen);
      resolve({ screen, code: m ? Number(m[1]) : -1 });
    });
    child.stdin.end();
  });
}

/** A pager that records what it is given: `command` for EMAIL_PAGER and the like, `file` to read back. */
export function recorder(): { file: string; command: string } {
  const file = join(mkdtempSync(join(tmpdir(), 'email-pager-')), 'paged.txt');
  return { file, command: `cat > ${shellQuote(file)}` };
}
