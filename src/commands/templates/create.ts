// email templates create: compulsory options are checked by templateFrom, so a
// missing one gets the service's code.
import { defineCommand, textOption } from '../define.js';

export default defineCommand({
  name: 'create',
  summary: 'Register a template from an HTML page URL and a ZIP URL, and print its id',
  options: {
    name: textOption('--name', '<n>', 'template name (required)'),
    htmlUrl: textOption('--html-url', '<u>', 'URL of the HTML page (required)'),
    zipUrl: textOption('--zip-url', '<u>', 'URL of the ZIP of images and files (required)'),
  },
  // Prints the new template's id.
  records: { fields: [] },
  examples: ['email templates create --name Monthly --html-url https://example.com/t.html --zip-url https://example.com/t.zip'],
  async run(input, ctx) {
    const [{ createTemplate }, { createdResult }, { templateFrom }] = await Promise.all([
      import('../../api/templates.js'),
      import('../created-id.js'),
      import('../../validation/campaign-fields.js'),
    ]);
    const template = templateFrom(input);
    const answer = await createTemplate(await ctx.api(), template);
    const what = `template "${template.Name}"`;
    if (answer.fits) return createdResult(ctx, answer.data, answer.data, what);
    return createdResult(ctx, answer.data, undefined, what, answer.problem);
  },
});
