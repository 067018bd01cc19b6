// Links a campaign's HTML carries, as the service imports them for click
// tracking (service-spec.md "Coded errors by area": 316 problem importing
// links, 317 link too long).
import type { TagToken } from './markup.js';
import { ProblemList, type ContentProblem } from './problems.js';

/**
 * The longest link the sandbox imports for click tracking (code 317). The
 * service's limit is not shown; 2,048 characters is the common practical URL
 * limit.
 */
export const MAX_LINK_LENGTH = 2048;

function isParsableUrl(href: string): boolean {
  if (/\s/.test(href)) return false;
  try {
    return new URL(href).hostname.length > 0;
  } catch {
    return false;
  }
}

/** 316 (a link whose URL cannot be parsed) and 317 (a link too long), each once. */
export function linkProblems(tags: readonly TagToken[]): ContentProblem[] {
  const problems = new ProblemList();
  for (const tag of tags) {
    if (tag.kind !== 'open' || (tag.name !== 'a' && tag.name !== 'area')) continue;
    const href = tag.attrs.href?.trim();
    if (!href) continue;
    if (href.length > MAX_LINK_LENGTH) problems.add(317, `A link is ${href.length} characters long; the limit is ${MAX_LINK_LENGTH}.`);
    // Only absolute web links are imported for tracking; personalisation tags
    // ([webversion], [firstname]) and mailto:/tel: links are left alone.
    if (/^https?:/i.test(href) && !href.includes('[') && !isParsableUrl(href)) {
      problems.add(316, `The link "${href.slice(0, 100)}" could not be imported: it is not a valid URL.`);
    }
  }
  return problems.items;
}
