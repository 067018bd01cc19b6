// Content checks of a campaign's HTML (service-spec.md "Coded errors by
// area", draft campaign creation: 311, 316-318, 4201-4203, 4302-4307).
import { activeContentProblems, inlineScriptProblem } from './active-content.js';
import { linkProblems } from './links.js';
import { readMarkup } from './markup.js';
import { ProblemList, type ContentProblem } from './problems.js';
import { TEXT_UNSUBSCRIBE_TAG } from './service-tags.js';
import { unsubscribeProblems } from './unsubscribe-tag.js';

/**
 * Problems of a campaign's HTML, in the order they are reported (the route
 * answers with the first). 311 is used for content that is not HTML at all and
 * for script outside <script> elements (event-handler attributes,
 * javascript: links): "invalid HTML content (script or Flash)".
 */
export function checkCampaignHtml(html: string): ContentProblem[] {
  const markup = readMarkup(html);
  if (html.trim() === '' || html.includes('\u0000') || markup.tags.length === 0) {
    return [{ code: 311, message: 'Invalid HTML content: the HTML URL did not give an HTML document.' }];
  }
  const problems = new ProblemList();
  problems.addAll(activeContentProblems(markup.tags));
  const inline = inlineScriptProblem(markup.tags);
  if (inline) problems.add(inline.code, inline.message);
  const unsubscribe = unsubscribeProblems(markup);
  problems.addAll(unsubscribe.problems);
  if (unsubscribe.count === 0 && TEXT_UNSUBSCRIBE_TAG.test(markup.uncommented)) {
    problems.add(318, 'Only a text-style unsubscribe tag ([unsubscribe]) is present; the HTML needs a single-click <unsubscribe> link.');
  }
  problems.addAll(linkProblems(markup.tags));
  return problems.items;
}
