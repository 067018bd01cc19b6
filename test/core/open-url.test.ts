// How a page's opener is chosen and $BROWSER is split (src/core/open-url.ts); starting it is tested end to end (test/e2e/open-web.test.ts).
import { describe, expect, it } from 'vitest';
import { browserOpener, splitCommand, webPageUrl } from '../../src/core/open-url.js';

describe('webPageUrl', () => {
  it('takes http and https only', () => {
    expect(webPageUrl('https://a.example/x')).toBe('https://a.example/x');
    expect(webPageUrl('HTTP://a.example')).toBe('http://a.example/');
    for (const bad of ['file:///etc/passwd', 'javascript:alert(1)', 'mailto:a@b.c', 'x-custom://run', '/relative', '', 17, null]) {
      expect(webPageUrl(bad), String(bad)).toBeUndefined();
    }
  });
});

describe('splitCommand', () => {
  it('splits words as a shell would quote them, expanding nothing', () => {
    expect(splitCommand('firefox --new-window')).toEqual(['firefox', '--new-window']);
    expect(splitCommand(`'/Applications/My Browser' "a \\"b\\"" c\\ d $HOME`)).toEqual(['/Applications/My Browser', 'a "b"', 'c d', '$HOME']);
    expect(splitCommand("open 'unclosed")).toBeUndefined();
  });
});

describe('browserOpener', () => {
  it('$BROWSER wins; else the platform opener where there is a display', () => {
    expect(browserOpener({ BROWSER: 'w3m -o x' }, 'linux')).toEqual({ file: 'w3m', args: ['-o', 'x'] });
    expect(browserOpener({ DISPLAY: ':0' }, 'linux')).toEqual({ file: 'xdg-open', args: [] });
    expect(browserOpener({ WAYLAND_DISPLAY: 'wayland-0' }, 'linux')).toEqual({ file: 'xdg-open', args: [] });
    expect(browserOpener({}, 'darwin')).toEqual({ file: 'open', args: [] });
    expect(browserOpener({}, 'win32')).toEqual({ file: 'rundll32', args: ['url.dll,FileProtocolHandler'] });
  });

  it('no display, CI or SSH without $BROWSER: a reason, nothing to start', () => {
    expect(browserOpener({}, 'linux')).toHaveProperty('reason', expect.stringMatching(/no display/));
    expect(browserOpener({ CI: 'true', DISPLAY: ':0' }, 'linux')).toHaveProperty('reason', expect.stringMatching(/CI/));
    expect(browserOpener({ SSH_CONNECTION: '1 2 3 4' }, 'darwin')).toHaveProperty('reason', expect.stringMatching(/SSH/));
  });
});
