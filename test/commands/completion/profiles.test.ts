// `email __profiles`: the stored profile names for the completion scripts
// (issue 13.13; the shells' side is in test/completion/<shell>.test.ts).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { profileConfig } from '../../helpers/completion.js';
import { runCli } from '../../helpers/cli.js';

describe('profile names', () => {
  const { configDir } = profileConfig();

  it('email __profiles prints the stored profile names, one a line, and nothing for a missing config', async () => {
    expect((await runCli(['__profiles'], { env: { EMAIL_CONFIG_DIR: configDir } })).stdout).toBe('prod\nstaging\n');
    const none = await runCli(['__profiles'], { env: { EMAIL_CONFIG_DIR: join(configDir, 'missing') } });
    expect(none).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect((await runCli(['--help'])).stdout).not.toContain('__profiles');
  });
});
