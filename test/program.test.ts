// `email help <command…>` is `email <command…> --help`, at any depth; an
// unknown command is exit 2 with a suggestion, as without `help` (issue 13.9).
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';

describe('email help', () => {
  it('shows the help of a command two levels down, the same as --help', async () => {
    const viaHelp = await runCli(['help', 'subscribers', 'import']);
    const viaFlag = await runCli(['subscribers', 'import', '--help']);
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.stdout).toMatch(/^Usage: email subscribers import \[options\] <file>/);
    expect(viaHelp.stdout).toBe(viaFlag.stdout);
  });

  it('shows a group and the program', async () => {
    expect((await runCli(['help', 'campaigns'])).stdout).toMatch(/^Usage: email campaigns \[options\] \[command\]/);
    expect((await runCli(['help'])).stdout).toMatch(/^Usage: email \[options\] \[command\]/);
  });

  it('refuses an unknown command with exit 2 and a suggestion', async () => {
    const r = await runCli(['help', 'campains']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("error: unknown command 'campains'\n(Did you mean campaigns?)\n");
    const deeper = await runCli(['help', 'campaigns', 'sumary']);
    expect(deeper.code).toBe(2);
    expect(deeper.stderr).toBe("error: unknown command 'campaigns sumary'\n(Did you mean summary?)\n");
  });

  it('lists a command with its one-line summary in its group, the longer description only in its own help', async () => {
    const root = await runCli(['--help']);
    expect(root.stdout).toMatch(/^ {2}doctor {2,}Check configuration, permissions, reachability, key\n {25}validity and clock skew\n {2}completion/m);
    expect((await runCli(['doctor', '--help'])).stdout).toMatch(/Exits 1 when a check fails/);
  });
});

describe('one list of values in help and in errors', () => {
  it('--encoding: the help names the encodings its refusal names (issue 13.10)', async () => {
    const help = (await runCli(['subscribers', 'import', '--help'])).stdout.replace(/\s+/g, ' ');
    const refused = await runCli(['subscribers', 'import', 'x.csv', '--list', '11111111-1111-4111-8111-111111111111', '--encoding', 'ebcdic', '--dry-run']);
    expect(refused.code).toBe(2);
    const listed = /must be one of ([\w, -]+) \(got/.exec(refused.stderr)![1]!;
    expect(listed.split(', ')).toHaveLength(5);
    expect(help).toContain(listed);
  });
});
