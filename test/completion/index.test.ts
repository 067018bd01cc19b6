// completionScript (src/completion/index.ts): the shell's script, generated
// from the tree of the commander program it is given.
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMPLETION_FILES, completionScript, SHELLS } from '../../src/completion/index.js';

function program(): Command {
  const root = new Command('email');
  root.command('subscribers').command('history').option('--list <id>', 'list id');
  return root;
}

describe('completionScript', () => {
  it("writes each shell's own script, naming the program's commands and options", () => {
    const bash = completionScript('bash', program());
    expect(bash).toMatch(/^# bash completion for email/);
    expect(bash).toContain('complete -F _email email');
    expect(completionScript('zsh', program())).toMatch(/^#compdef email/);
    expect(completionScript('fish', program())).toContain('complete -c email');
    for (const shell of SHELLS) {
      const script = completionScript(shell, program());
      expect(script, shell).toContain('history');
      expect(script, shell).toContain('--list');
    }
  });

  it('names the files as packagers install them (zsh wants _email on its $fpath)', () => {
    expect(COMPLETION_FILES).toEqual({ bash: 'email.bash', zsh: '_email', fish: 'email.fish' });
  });
});
