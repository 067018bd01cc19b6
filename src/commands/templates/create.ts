// email templates create: POST /email/templates (service-spec.md "Create
// template"); prints the template id.
import { createTemplate } from '../../api/templates.js';
import type { Context } from '../../context.js';
import { printCreated } from '../../output/created-id.js';
import { templateFrom } from '../../validation/campaign-fields.js';

export async function run(opts: Record<string, unknown>, ctx: Context): Promise<void> {
  const template = templateFrom(opts);
  const answer = await createTemplate(await ctx.api(), template);
  const what = `template "${template.Name}"`;
  if (answer.fits) await printCreated(ctx, answer.data, answer.data, what);
  else await printCreated(ctx, answer.data, undefined, what, answer.problem);
}
