// email campaigns summary: the table adds the rates a marketer reads first, as
// bars on a terminal; `--json` is the service's answer unchanged.
import type { Column, DisplayStyle } from '../define.js';
import { defineCommand, idArg } from '../define.js';
import { WEB_OPTION } from '../web.js';

/** A bar for 100%: wide enough that one point of a rate shows, narrow enough for 60 columns. */
const BAR_CELLS = 20;
/** Eighths of a cell, so that a 1.2% bounce rate is a sliver rather than nothing. */
const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];

function numberOf(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) ? n : undefined;
}

function count(value: unknown, _record: unknown, text: DisplayStyle): string {
  const n = numberOf(value);
  return n === undefined ? String(value ?? '') : text.count(n);
}

export function rateBar(percent: number): string {
  const eighths = Math.round((Math.min(Math.max(percent, 0), 100) / 100) * BAR_CELLS * 8);
  const full = Math.floor(eighths / 8);
  const part = EIGHTHS[eighths % 8]!;
  return `${'█'.repeat(full)}${part}${'░'.repeat(BAR_CELLS - full - (part ? 1 : 0))}`;
}

/** No recipients gives no rate rather than a division by zero: empty in a pipe, words on a terminal. */
function rate(value: unknown, record: Record<string, unknown>, text: DisplayStyle): string {
  const recipients = numberOf(record.Recipients);
  const part = numberOf(value);
  if (!recipients || recipients <= 0 || part === undefined) return text.terminal ? 'no recipients' : '';
  const percent = (part / recipients) * 100;
  const shown = `${percent.toFixed(1)}%`;
  return text.terminal ? `${rateBar(percent)} ${shown.padStart(6)}` : shown;
}

const COLUMNS: Column[] = [
  { key: 'Recipients', header: 'Recipients', format: count },
  // The service has no rate fields: each is its counter over Recipients (unique opens for the open rate).
  { key: 'UniqueOpened', header: 'Open rate', format: rate, derived: true },
  { key: 'Clicks', header: 'Click rate', format: rate, derived: true },
  { key: 'Bounced', header: 'Bounce rate', format: rate, derived: true },
  { key: 'Unsubscribed', header: 'Unsubscribe rate', format: rate, derived: true },
  { key: 'UniqueOpened', header: 'Opened (unique)', format: count },
  { key: 'TotalOpened', header: 'Opened (total)', format: count },
  { key: 'Clicks', header: 'Clicks', format: count },
  { key: 'Unsubscribed', header: 'Unsubscribed', format: count },
  { key: 'Bounced', header: 'Bounced', format: count },
  { key: 'SpamComplaints', header: 'Spam complaints', format: count },
  { key: 'Forwards', header: 'Forwards', format: count },
  { key: 'Likes', header: 'Likes', format: count },
  { key: 'Mentions', header: 'Mentions', format: count },
  { key: 'WebVersionURL', header: 'Web version' },
  { key: 'WebVersionTextURL', header: 'Web version (text)' },
  { key: 'WorldviewURL', header: 'Worldview' },
];

export default defineCommand({
  name: 'summary',
  summary: 'Show the summary of a sent campaign',
  description:
    'The table adds the rates read first: open, click, bounce and unsubscribe, as % of recipients, drawn as bars on a terminal and plain numbers in a pipe. --json is the service\'s answer unchanged.',
  records: { schema: async () => (await import('../../schemas/campaigns.js')).campaignSummary },
  args: { campaign: idArg('campaign', 'campaign id') },
  options: { web: WEB_OPTION },
  examples: ['email campaigns summary <id>', 'email campaigns summary --campaign <id> --json', 'email campaigns summary <id> --web'],
  async run({ campaign, web }, ctx) {
    // A scheduled campaign has a preview but no summary.
    if (web) return (await import('./open.js')).openCampaignPage(ctx, campaign);
    const { getCampaignSummary } = await import('../../api/campaigns.js');
    const summary = await getCampaignSummary(await ctx.api(), campaign);
    return { data: summary, columns: COLUMNS };
  },
});
