// The campaign-side request bodies (service-spec.md "Draft campaign", "Send
// campaign preview", "Template"), checked with the service's codes.
import { describe, expect, it } from 'vitest';
import { draftCampaignFrom, previewRecipientsFrom, templateFrom, type DraftCampaignInput } from '../../src/validation/campaign-fields.js';
import { refusal } from '../helpers/usage.js';

const LIST = '3f2b8c1e-0a4d-4c6b-9e1f-2a7d5c9b8e41';
const draft = (extra: Partial<DraftCampaignInput> = {}): DraftCampaignInput => ({
  name: 'March',
  subject: 'News',
  fromName: 'Ada',
  fromEmail: ' ada@example.com ',
  replyTo: 'reply@example.com',
  htmlUrl: 'https://example.com/march.html',
  list: [LIST],
  segment: [],
  ...extra,
});

describe('draftCampaignFrom', () => {
  it('builds the create body, addresses trimmed, ListIDs only', () => {
    expect(draftCampaignFrom(draft())).toEqual({
      Name: 'March',
      Subject: 'News',
      FromName: 'Ada',
      FromEmail: 'ada@example.com',
      ReplyTo: 'reply@example.com',
      HtmlUrl: 'https://example.com/march.html',
      ListIDs: [LIST],
    });
  });

  it('sends SegmentIDs instead of ListIDs, and TextUrl only when given and not blank', () => {
    const body = draftCampaignFrom(draft({ list: [], segment: [LIST], textUrl: 'https://example.com/march.txt' }));
    expect(body).toMatchObject({ SegmentIDs: [LIST], TextUrl: 'https://example.com/march.txt' });
    expect(body).not.toHaveProperty('ListIDs');
    expect(draftCampaignFrom(draft({ textUrl: '  ' }))).not.toHaveProperty('TextUrl');
  });

  it.each([
    ['no name', { name: undefined }, 319],
    ['no subject', { subject: '' }, 304],
    ['no sender name', { fromName: ' ' }, 305],
    ['no sender address', { fromEmail: undefined }, 307],
    ['a bad sender address', { fromEmail: 'ada@' }, 307],
    ['no reply-to', { replyTo: undefined }, 308],
    ['a bad reply-to', { replyTo: 'reply' }, 309],
    ['no HTML URL', { htmlUrl: undefined }, 310],
    ['an HTML URL that is not http(s)', { htmlUrl: 'file:///a.html' }, 310],
    ['a bad text URL', { textUrl: 'a.txt' }, 312],
    ['a list id that is no UUID', { list: [LIST, 'x'] }, 313],
    ['a segment id that is no UUID', { list: [], segment: ['x'] }, 314],
    ['lists and segments both', { segment: [LIST] }, 315],
    ['neither lists nor segments', { list: [] }, 315],
  ] as const)('refuses %s with %i', (_why, extra, code) => {
    expect(refusal(() => draftCampaignFrom(draft(extra as Partial<DraftCampaignInput>)))?.code).toBe(code);
  });

  it('checks in the order of the fields: the first problem is the one reported', () => {
    expect(refusal(() => draftCampaignFrom(draft({ name: undefined, subject: undefined, list: [] })))?.code).toBe(319);
  });
});

describe('previewRecipientsFrom', () => {
  it('takes up to 15 addresses, trimmed, blanks dropped', () => {
    expect(previewRecipientsFrom([' a@example.com', '', 'b@example.com '])).toEqual(['a@example.com', 'b@example.com']);
    expect(previewRecipientsFrom(Array.from({ length: 15 }, (_, i) => `p${i}@example.com`))).toHaveLength(15);
  });

  it('refuses none (370), more than 15 (374), and names every invalid address (371)', () => {
    expect(refusal(() => previewRecipientsFrom(['  ']))?.code).toBe(370);
    expect(refusal(() => previewRecipientsFrom(Array.from({ length: 16 }, (_, i) => `p${i}@example.com`)))).toEqual({ code: 374, message: 'at most 15 preview recipients per call; got 16' });
    expect(refusal(() => previewRecipientsFrom(['a@example.com', 'x', 'y@']))).toEqual({ code: 371, message: 'invalid preview recipient addresses: "x", "y@"' });
    expect(refusal(() => previewRecipientsFrom(['x']))?.message).toBe('invalid preview recipient address: "x"');
  });
});

describe('templateFrom', () => {
  it('builds the create body, URLs trimmed', () => {
    expect(templateFrom({ name: 'Monthly', htmlUrl: ' https://example.com/t.html', zipUrl: 'https://example.com/t.zip ' })).toEqual({
      Name: 'Monthly',
      HtmlPageURL: 'https://example.com/t.html',
      ZipFileURL: 'https://example.com/t.zip',
    });
  });

  it.each([
    ['no name', { htmlUrl: 'https://e.com/a', zipUrl: 'https://e.com/z' }, 4002],
    ['no HTML URL', { name: 'T', zipUrl: 'https://e.com/z' }, 4004],
    ['a bad HTML URL', { name: 'T', htmlUrl: 'e.com/a', zipUrl: 'https://e.com/z' }, 4005],
    ['no ZIP URL', { name: 'T', htmlUrl: 'https://e.com/a' }, 4006],
    ['a bad ZIP URL', { name: 'T', htmlUrl: 'https://e.com/a', zipUrl: 'ftp://e.com/z' }, 4006],
  ])('refuses %s with %i', (_why, opts, code) => {
    expect(refusal(() => templateFrom(opts))?.code).toBe(code);
  });
});
