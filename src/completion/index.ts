// Completion scripts for bash, zsh and fish, generated from the commander
// tree (CLI.md "completion"); the same scripts are committed in completions/.
import type { Command } from 'commander';
import { bashScript } from './bash.js';
import { commandTree } from './command-tree.js';
import { fishScript } from './fish.js';
import { zshScript } from './zsh.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** File names in completions/ (zsh wants `_email` on its $fpath). */
export const COMPLETION_FILES: Record<Shell, string> = { bash: 'email.bash', zsh: '_email', fish: 'email.fish' };

export function completionScript(shell: Shell, program: Command): string {
  const tree = commandTree(program);
  switch (shell) {
    case 'bash':
      return bashScript(tree);
    case 'zsh':
      return zshScript(tree);
    case 'fish':
      return fishScript(tree);
  }
}
