// Templates (service-spec.md "Template (create request)", "Create template",
// template codes 4002-4006 and the content checks 41xx-44xx, 4350).
import { randomUUID } from 'node:crypto';
import { fetchLocalContent, isContentUrl } from '../content/fetch-content.js';
import { created, failCoded, requireBodyObject, type RouteDef } from '../router.js';
import type { SandboxTemplate } from '../types-campaigns.js';

const TEMPLATE_MESSAGES = {
  4002: 'The template name is required.',
  4003: 'The template name is invalid.',
  4004: 'The HTML page URL is required.',
  4005: 'The HTML page URL is invalid.',
  4006: 'The ZIP file URL is invalid.',
  4350: 'Files referenced by the HTML are missing from the ZIP file.',
} as const;

/**
 * The spec says only "invalid name" (4003). The sandbox refuses names longer
 * than this and names holding angle brackets or control characters.
 */
const TEMPLATE_NAME_MAX_LENGTH = 100;
const INVALID_NAME_CHARS = /[<>\u0000-\u001F\u007F]/;

const createTemplate: RouteDef = {
  method: 'POST',
  pattern: '/email/templates',
  async handler(req, ctx) {
    const { Name, HtmlPageURL, ZipFileURL } = requireBodyObject(req.body, 'the template');
    if (Name === undefined || Name === null || (typeof Name === 'string' && Name.trim() === '')) failCoded(4002, TEMPLATE_MESSAGES[4002]);
    if (typeof Name !== 'string' || Name.length > TEMPLATE_NAME_MAX_LENGTH || INVALID_NAME_CHARS.test(Name)) {
      failCoded(4003, `${TEMPLATE_MESSAGES[4003]} (at most ${TEMPLATE_NAME_MAX_LENGTH} characters, no angle brackets or control characters)`);
    }
    if (HtmlPageURL === undefined || HtmlPageURL === null || HtmlPageURL === '') failCoded(4004, TEMPLATE_MESSAGES[4004]);
    if (typeof HtmlPageURL !== 'string' || !isContentUrl(HtmlPageURL.trim())) failCoded(4005, TEMPLATE_MESSAGES[4005]);
    // ZipFileURL is required (spec table) and has only the one code.
    if (typeof ZipFileURL !== 'string' || !isContentUrl(ZipFileURL.trim())) failCoded(4006, TEMPLATE_MESSAGES[4006]);

    // Content checks, only for content on this machine (content/fetch-content.ts).
    const page = await fetchLocalContent(HtmlPageURL.trim());
    const html = page.kind === 'content' ? page.bytes.toString('utf8') : undefined;
    // The HTML and ZIP readers (htmlparser2, fflate) load with the first content to check, not with the sandbox.
    if (html !== undefined) {
      const { checkTemplateHtml } = await import('../content/template-html.js');
      const [problem] = checkTemplateHtml(html);
      if (problem) failCoded(problem.code, problem.message);
    }
    const zip = await fetchLocalContent(ZipFileURL.trim());
    if (zip.kind === 'content') {
      const { missingFromZip, zipEntryNames } = await import('../content/zip-files.js');
      const entries = zipEntryNames(zip.bytes);
      if (!entries) failCoded(4006, `${TEMPLATE_MESSAGES[4006]} (the URL did not give a ZIP archive.)`);
      const missing = html === undefined ? [] : missingFromZip(html, entries);
      if (missing.length) failCoded(4350, `${TEMPLATE_MESSAGES[4350]} (${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ', …' : ''})`);
    }

    const template: SandboxTemplate = {
      TemplateID: randomUUID(),
      Name: Name.trim(),
      HtmlPageURL: HtmlPageURL.trim(),
      ZipFileURL: ZipFileURL.trim(),
      DateCreated: ctx.now().toISOString(),
    };
    ctx.store.mutate((state) => (state.templates[template.TemplateID] = template));
    return created(template.TemplateID);
  },
};

export const routes: RouteDef[] = [createTemplate];
