// The --from-file option of the segments commands: a JSON body read strictly
// (validation/rule-groups.ts segmentBodyFromFile).
import type { Context } from '../../context.js';
import { textOption } from '../define.js';

export const fromFileOption = (what: string) => textOption('--from-file', '<json>', `${what} as JSON: @file, @- for stdin, or inline (what \`segments get --json\` prints is taken)`);

export async function readSegmentFile(fromFile: string, kind: 'segment' | 'group', ctx: Context): Promise<Record<string, unknown>> {
  const [{ readJsonArgument }, { segmentBodyFromFile }] = await Promise.all([import('../../core/json-input.js'), import('../../validation/rule-groups.js')]);
  const doc = await readJsonArgument(fromFile, '--from-file', ctx.stdin.stream, ctx.cwd, ctx.signal);
  return segmentBodyFromFile(doc, kind, ctx.log.warn);
}
