// Rules of the <unsubscribe> tag shared by campaigns and templates
// (service-spec.md "Coded errors by area": 4302 text under 3 characters, 4303
// a link inside the tag, 4304 no closing tag, 4306 nested in another service
// tag, 4307 nested in a link).
import { textBetween, type Markup, type TagToken } from './markup.js';
import { ProblemList, type ContentProblem } from './problems.js';
import { SERVICE_TAGS } from './service-tags.js';

interface UnsubscribeFindings {
  problems: ContentProblem[];
  /** <unsubscribe> tags seen, well-formed or not. */
  count: number;
}

export function unsubscribeProblems(markup: Markup): UnsubscribeFindings {
  const problems = new ProblemList();
  const serviceStack: string[] = [];
  let linkDepth = 0;
  let open: TagToken | undefined;
  let linkInside = false;
  let count = 0;
  for (const tag of markup.tags) {
    if (tag.name === 'unsubscribe') {
      if (tag.kind === 'open') {
        if (open) problems.add(4304, 'An <unsubscribe> tag has no closing </unsubscribe> tag.');
        if (serviceStack.length) problems.add(4306, `The <unsubscribe> tag is nested in the <${serviceStack[serviceStack.length - 1]}> tag.`);
        if (linkDepth > 0) problems.add(4307, 'The <unsubscribe> tag is nested in a link (<a>); it is a link itself.');
        open = tag;
        linkInside = false;
        count++;
      } else if (open) {
        if (linkInside) problems.add(4303, 'The <unsubscribe> tag contains a link (<a>); it is a link itself.');
        if (textBetween(markup, open, tag).length < 3) problems.add(4302, 'The text of the <unsubscribe> tag is under 3 characters.');
        open = undefined;
      }
      continue;
    }
    if (tag.name === 'a' && !tag.selfClosing) {
      if (tag.kind === 'open') {
        linkDepth++;
        if (open) linkInside = true;
      } else linkDepth = Math.max(0, linkDepth - 1);
    }
    if (SERVICE_TAGS.has(tag.name) && !tag.selfClosing) {
      if (tag.kind === 'open') serviceStack.push(tag.name);
      else {
        const at = serviceStack.lastIndexOf(tag.name);
        if (at >= 0) serviceStack.length = at;
      }
    }
  }
  if (open) problems.add(4304, 'An <unsubscribe> tag has no closing </unsubscribe> tag.');
  return { problems: problems.items, count };
}
