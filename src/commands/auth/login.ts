// email auth login: the definition; login-run.ts checks and stores the key
// (in the keychain where there is one, else in the config file).
import { defineCommand, switchOption } from '../define.js';

export default defineCommand({
  name: 'login',
  summary: "Store an API key for a profile, in the operating system's keychain where there is one (prompted without echo, or read from stdin with --with-key)",
  options: {
    withKey: switchOption('--with-key', 'read the key from standard input (for CI)'),
    insecureStorage: switchOption('--insecure-storage', "keep the key in the config file (0600), not in the operating system's keychain"),
  },
  records: false,
  examples: [
    'email auth login --base-url https://api.example.com',
    'echo "$EMAIL_KEY" | email auth login --profile ci --base-url https://api.example.com --with-key',
    'echo "$EMAIL_KEY" | email auth login --profile ci --base-url https://api.example.com --with-key --insecure-storage',
  ],
  async run(input, ctx) {
    const { loginCommand } = await import('./login-run.js');
    return loginCommand(input, ctx);
  },
});
