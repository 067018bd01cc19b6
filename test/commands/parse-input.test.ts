// Options are declared once (src/commands/define.ts) and checked once
// (src/commands/parse-input.ts): every refusal has one shape and carries the
// service's code where the rule is the service's.
import { describe, expect, it } from 'vitest';
import unsubscribes from '../../src/commands/campaigns/unsubscribes.js';
import stats from '../../src/commands/transactional/stats.js';
import importCommand from '../../src/commands/subscribers/import.js';
import { parseInput, parseOptions } from '../../src/commands/parse-input.js';
import { GLOBAL_OPTIONS } from '../../src/commands/globals.js';
import { UsageError } from '../../src/core/errors.js';

const CAMPAIGN = '3f2b8c1e-0a4d-4c6b-9e1f-2a7d5c9b8e41';

function refusal(fn: () => unknown): { code?: number; message: string } {
  try {
    fn();
  } catch (err) {
    if (err instanceof UsageError) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('declared options', () => {
  it('page from 1 (800), page size 10 to 1000 (801), in one message shape', () => {
    expect(parseInput(unsubscribes, { page: '1', pageSize: '10' }, [CAMPAIGN])).toMatchObject({ page: 1, pageSize: 10, campaign: CAMPAIGN });
    expect(parseInput(unsubscribes, { pageSize: '1000' }, [CAMPAIGN]).pageSize).toBe(1000);
    expect(refusal(() => parseInput(unsubscribes, { page: '0' }, [CAMPAIGN]))).toMatchObject({ code: 800 });
    expect(refusal(() => parseInput(unsubscribes, { pageSize: '1e3' }, [CAMPAIGN]))).toEqual({ code: 801, message: '--page-size must be 10..1000 (got "1e3")' });
  });

  it('choices match in any case and come back in the declared spelling (802, 803, 923)', () => {
    expect(parseInput(unsubscribes, { orderField: 'Email', orderDirection: 'DESC' }, [CAMPAIGN])).toMatchObject({ orderField: 'email', orderDirection: 'desc' });
    expect(refusal(() => parseInput(unsubscribes, { orderField: 'ip' }, [CAMPAIGN]))).toEqual({ code: 802, message: '--order-field must be one of email, name, date (got "ip")' });
    expect(refusal(() => parseInput(unsubscribes, { orderDirection: 'down' }, [CAMPAIGN])).code).toBe(803);
    expect(parseInput(stats, { timezone: 'UTC' }, []).timezone).toBe('utc');
    expect(refusal(() => parseInput(stats, { timezone: 'local' }, [])).code).toBe(923);
  });

  it('defaults apply, and bounds are refused with the service code where there is one', () => {
    const input = parseInput(importCommand, { list: CAMPAIGN }, ['people.csv']);
    expect(input).toMatchObject({ file: 'people.csv', batchSize: 1000, concurrency: 4, map: [], dryRun: false });
    expect(refusal(() => parseInput(importCommand, { list: CAMPAIGN, batchSize: '1001' }, ['x.csv']))).toEqual({ code: 209, message: '--batch-size must be 1..1000 (got "1001")' });
    expect(refusal(() => parseInput(importCommand, { list: CAMPAIGN, concurrency: '33' }, ['x.csv'])).message).toBe('--concurrency must be 1..32 (got "33")');
    expect(refusal(() => parseInput(importCommand, { list: CAMPAIGN, concurrency: '2.5' }, ['x.csv'])).message).toBe('--concurrency must be 1..32 (got "2.5")');
  });

  it('a list command has --limit in its input, for its page walk; other commands have none', () => {
    expect(parseInput(unsubscribes, { limit: '25' }, [CAMPAIGN]).limit).toBe(25);
    expect(parseInput(unsubscribes, {}, [CAMPAIGN]).limit).toBeUndefined();
    expect(refusal(() => parseInput(unsubscribes, { limit: '0' }, [CAMPAIGN])).message).toBe('--limit must be a whole number of at least 1 (got "0")');
    expect('limit' in parseInput(importCommand, { list: CAMPAIGN, limit: '25' }, ['x.csv'])).toBe(false);
  });

  it('a required id is refused when missing or not a UUID', () => {
    expect(refusal(() => parseInput(importCommand, {}, ['x.csv'])).message).toBe('--list is required');
    expect(refusal(() => parseInput(importCommand, { list: 'newsletter' }, ['x.csv'])).message).toMatch(/^--list must be a UUID such as .* \(got "newsletter"\)$/);
  });

  it('an id is the first argument or its flag; both, differently, is refused', () => {
    expect(parseInput(unsubscribes, { campaign: CAMPAIGN }, []).campaign).toBe(CAMPAIGN);
    expect(parseInput(unsubscribes, { campaign: CAMPAIGN }, [CAMPAIGN]).campaign).toBe(CAMPAIGN);
    expect(refusal(() => parseInput(unsubscribes, { campaign: CAMPAIGN }, ['11111111-1111-4111-8111-111111111111'])).message).toMatch(/given twice/);
    expect(refusal(() => parseInput(unsubscribes, {}, [])).message).toMatch(/^--campaign is required/);
  });

  it('global options: --output in any case, --no-color, a positive --timeout', () => {
    expect(parseOptions(GLOBAL_OPTIONS, { output: 'JSON', color: false, timeout: '2.5' })).toMatchObject({ output: 'json', noColor: true, timeout: 2.5 });
    expect(parseOptions(GLOBAL_OPTIONS, {})).toMatchObject({ output: 'table', noColor: false, quiet: false });
    expect(refusal(() => parseOptions(GLOBAL_OPTIONS, { timeout: '0' })).message).toBe('--timeout must be a number above 0 (got "0")');
  });
});
