// Active content, refused in campaigns and templates alike (service-spec.md
// "Coded errors by area": 4201 Flash, 4202 script, 4203 Java; 311 "invalid
// HTML content (script or Flash)" for script a campaign carries outside
// <script> elements).
import type { TagToken } from './markup.js';
import type { ContentProblem } from './problems.js';

const FLASH_CLASSID = /d27cdb6e-ae6d-11cf-96b8-444553540000/i;
const FLASH_TYPE = /^application\/(x-shockwave-flash|futuresplash)/i;
const JAVA_TYPE = /^application\/x-java-(applet|bean|vm)/i;

function referencesSwf(value: string | undefined): boolean {
  return value !== undefined && /\.swf(?:[?#].*)?$/i.test(value.trim());
}

function isFlash(t: TagToken): boolean {
  if (t.name === 'object' || t.name === 'embed') {
    return FLASH_TYPE.test(t.attrs.type ?? '') || FLASH_CLASSID.test(t.attrs.classid ?? '') || referencesSwf(t.attrs.src) || referencesSwf(t.attrs.data);
  }
  return t.name === 'param' && /^(movie|src)$/i.test(t.attrs.name ?? '') && referencesSwf(t.attrs.value);
}

function isJava(t: TagToken): boolean {
  if (t.name === 'applet') return true;
  return (t.name === 'object' || t.name === 'embed') && (JAVA_TYPE.test(t.attrs.type ?? '') || /^java:/i.test(t.attrs.classid ?? '') || /\.(class|jar)$/i.test(t.attrs.code ?? ''));
}

/** 4201 Flash, 4202 script, 4203 Java applet, in that order. */
export function activeContentProblems(tags: readonly TagToken[]): ContentProblem[] {
  const problems: ContentProblem[] = [];
  const opens = tags.filter((t) => t.kind === 'open');
  const flash = opens.find(isFlash);
  if (flash) problems.push({ code: 4201, message: `The HTML contains Flash (<${flash.name}>), which email clients do not play.` });
  if (opens.some((t) => t.name === 'script')) problems.push({ code: 4202, message: 'The HTML contains a <script> element.' });
  const java = opens.find(isJava);
  if (java) problems.push({ code: 4203, message: `The HTML contains a Java applet (<${java.name}>).` });
  return problems;
}

/** Event handlers are `on` plus an event name of three letters or more (onclick, onload); `open` (details, dialog) is not one. */
function isEventHandlerAttribute(name: string): boolean {
  return /^on[a-z]{3,}$/.test(name);
}

/** 311 for an event-handler attribute or a javascript: URL: script outside <script> (campaigns). */
export function inlineScriptProblem(tags: readonly TagToken[]): ContentProblem | undefined {
  const inline = tags.find((t) => t.kind === 'open' && Object.entries(t.attrs).some(([name, value]) => isEventHandlerAttribute(name) || /^\s*javascript:/i.test(value)));
  return inline && { code: 311, message: `Invalid HTML content: <${inline.name}> carries script (an event handler or a javascript: URL).` };
}
