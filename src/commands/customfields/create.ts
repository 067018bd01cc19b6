// email customfields create: POST /email/lists/{listId}/customfields
// (service-spec.md "Create custom field"); prints the generated Key.
import { createCustomField } from '../../api/custom-fields.js';
import type { Context } from '../../context.js';
import { printCreated } from '../../output/created-id.js';
import { customFieldFrom } from '../../validation/custom-field-definition.js';
import { checkUuid } from '../../validation/option-checks.js';

export async function run(opts: Record<string, unknown>, ctx: Context): Promise<void> {
  const listId = checkUuid(opts.list, '--list');
  const definition = customFieldFrom(opts);
  const answer = await createCustomField(await ctx.api(), listId, definition);
  await printCreated(ctx, answer, keyOf(answer), `custom field "${definition.FieldName}"`);
}

/** The 201 body is "not shown" in the spec: a bare string (the Key) or an object carrying Key. */
function keyOf(answer: unknown): string | undefined {
  if (typeof answer === 'string') return answer;
  if (answer && typeof answer === 'object' && typeof (answer as { Key?: unknown }).Key === 'string') return (answer as { Key: string }).Key;
  return undefined;
}
