// Opens a page in the browser as gh does: `$BROWSER` (split as a shell would, never run by one),
// else the platform's opener, detached and silent. The URL is always its own argument, so it
// can never become a command; with no display (CI, SSH) the caller prints the URL instead.
import { spawn } from 'node:child_process';

/** Never a file:, javascript: or custom scheme. */
export function webPageUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** POSIX quoting without expansion, as gh splits $BROWSER. Undefined when a quote is left open. */
export function splitCommand(line: string): string[] | undefined {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return undefined;
      word += line.slice(i + 1, end);
      i = end;
      inWord = true;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === '\\' && j + 1 < line.length && '"\\$`'.includes(line[j + 1]!)) j++;
        word += line[j];
      }
      if (j >= line.length) return undefined;
      i = j;
      inWord = true;
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

export interface Opener {
  file: string;
  args: string[];
}

/** The reason reads after "not opened: ". */
export function browserOpener(env: Readonly<Record<string, string | undefined>>, platform: NodeJS.Platform): Opener | { reason: string } {
  const browser = env.BROWSER?.trim();
  if (browser) {
    const words = splitCommand(browser);
    if (!words || words.length === 0) return { reason: 'BROWSER is not a command line (a quote is left open)' };
    return { file: words[0]!, args: words.slice(1) };
  }
  // With no BROWSER, a CI runner or an SSH session has no one at a screen to see the page.
  if (env.CI && env.CI !== 'false') return { reason: 'no display in CI (set BROWSER to open pages there)' };
  if (platform === 'win32') {
    // What gh uses: no cmd.exe, so no `start` parsing of & or ^ in the URL.
    return { file: 'rundll32', args: ['url.dll,FileProtocolHandler'] };
  }
  if (env.SSH_CONNECTION || env.SSH_TTY) {
    if (platform === 'darwin' || (!env.DISPLAY && !env.WAYLAND_DISPLAY)) return { reason: 'no display over SSH (set BROWSER to open pages)' };
  }
  if (platform === 'darwin') return { file: 'open', args: [] };
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return { reason: 'no display (neither DISPLAY nor WAYLAND_DISPLAY is set, and no BROWSER)' };
  return { file: 'xdg-open', args: [] };
}

export type OpenOutcome = { opened: true; command: string } | { opened: false; reason: string };

/** A missing opener is a reason to print the URL, not an error. */
export async function openInBrowser(url: string, env: Readonly<Record<string, string | undefined>>, platform: NodeJS.Platform = process.platform): Promise<OpenOutcome> {
  const opener = browserOpener(env, platform);
  if ('reason' in opener) return { opened: false, reason: opener.reason };
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(opener.file, [...opener.args, url], { detached: true, stdio: 'ignore', windowsHide: true, shell: false, env: { ...env } as NodeJS.ProcessEnv });
    } catch (err) {
      resolve({ opened: false, reason: `${opener.file} could not be started (${(err as Error).message})` });
      return;
    }
    child.once('error', (err: NodeJS.ErrnoException) => {
      resolve({ opened: false, reason: `${opener.file} could not be started (${err.code === 'ENOENT' ? 'not found' : err.message})` });
    });
    child.once('spawn', () => {
      child.unref();
      resolve({ opened: true, command: opener.file });
    });
  });
}
