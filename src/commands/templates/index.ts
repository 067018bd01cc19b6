import type { Command } from 'commander';
import { examples, type Lazy } from '../../program.js';

export function register(program: Command, lazy: Lazy): void {
  const templates = program.command('templates').description('Register campaign templates');
  // Compulsory options are checked in run(), so a missing one gets the service's code (4002, 4004, 4006).
  templates
    .command('create')
    .description('Register a template from an HTML page URL and a ZIP URL, and print its id')
    .option('--name <n>', 'template name (required)')
    .option('--html-url <u>', 'URL of the HTML page (required)')
    .option('--zip-url <u>', 'URL of the ZIP of images and files (required)')
    .addHelpText('after', examples('email templates create --name Monthly --html-url https://example.com/t.html --zip-url https://example.com/t.zip'))
    .action(lazy(() => import('./create.js')));
}
