import type { Command } from 'commander';
import { examples, type Lazy } from '../../program.js';

export function register(program: Command, lazy: Lazy): void {
  const templates = program.command('templates').description('Register campaign templates');
  templates
    .command('create')
    .description('Register a template from an HTML page URL and a ZIP URL, and print its id')
    .requiredOption('--name <n>', 'template name')
    .requiredOption('--html-url <u>', 'URL of the HTML page')
    .requiredOption('--zip-url <u>', 'URL of the ZIP of images and files')
    .addHelpText('after', examples('email templates create --name Monthly --html-url https://example.com/t.html --zip-url https://example.com/t.zip'))
    .action(lazy(() => import('../not-implemented.js')));
}
