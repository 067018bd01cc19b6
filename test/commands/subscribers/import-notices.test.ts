// What an import says on stderr before it sends, in-process against the
// sandbox: the columns sent as custom fields only because nothing maps them
// (CLI.md "Import input"), with what the service does with keys the list does
// not define, and the way out.
import { describe, expect, it } from 'vitest';
import { SEED_LIST_IDS } from '../../../src/sandbox/index.js';
import { sandboxPerTest } from '../../helpers/sandbox.js';
import { expectCountsAddUp, writeFile } from '../../helpers/import-files.js';

const LIST = SEED_LIST_IDS.newsletter;
const t = sandboxPerTest();

/** A warning as --json prints it on stderr: one JSON object a line (CLI.md "machine mode"). */
const warningLine = (message: string) => `${JSON.stringify({ type: 'warning', message })}\n`;

async function jsonImport(file: string, ...more: string[]) {
  const r = await t.email(['subscribers', 'import', file, '--list', LIST, ...more, '--json']);
  expectCountsAddUp(JSON.parse(r.stdout));
  return r;
}

describe('columns nothing maps', () => {
  it('names once on stderr the columns that become custom fields because nothing maps them, with the way out (issue 17.7)', async () => {
    writeFile(t.dir, 'mailchimp.csv', 'Email Address,First Name,Last Name,MEMBER_RATING,LEID,EUID,OPTIN_IP,Consent\nada@example.com,Ada,Lovelace,5,1,2,1.2.3.4,yes\nbob@example.com,Bob,B,2,3,4,,yes\n');
    const r = await jsonImport('mailchimp.csv', '--batch-size', '1');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(
      warningLine(
        `4 columns are sent as custom fields because nothing maps them: MEMBER_RATING, LEID, EUID, OPTIN_IP; the service ignores a key the list does not define, and a value that is not one of a field's options, without an error: create any the list lacks (email customfields create --list ${LIST} --name "MEMBER_RATING" --type <DataType>, …), or leave them out with --only-mapped, or --map "MEMBER_RATING=-" one by one`,
      ),
    );
    // Not with --only-mapped, nor for columns --map sends as custom fields on purpose.
    expect((await jsonImport('mailchimp.csv', '--only-mapped')).stderr).toBe('');
    const mapped = await jsonImport('mailchimp.csv', '--map', 'MEMBER_RATING=Rating', '--map', 'LEID=-', '--map', 'EUID=-', '--map', 'OPTIN_IP=OPTIN_IP');
    expect(mapped.stderr).toBe('');
    const one = await jsonImport('mailchimp.csv', '--map', 'MEMBER_RATING=Rating', '--map', 'LEID=-', '--map', 'EUID=-', '--dry-run');
    expect(one.stderr).toBe(
      warningLine(
        `1 column is sent as a custom field because nothing maps it: OPTIN_IP; the service ignores a key the list does not define, and a value that is not one of a field's options, without an error: create it if the list lacks it (email customfields create --list ${LIST} --name "OPTIN_IP" --type <DataType>), or leave it out with --only-mapped or --map "OPTIN_IP=-"`,
      ),
    );
    // A wide file: the list is capped, still one line.
    const vendor = Array.from({ length: 40 }, (_, i) => `V${i + 1}`);
    writeFile(t.dir, 'wide.csv', `email,Consent,${vendor.join(',')}\nw@example.com,yes,${vendor.map(() => 'x').join(',')}\n`);
    const wide = await jsonImport('wide.csv', '--allow-empty-names');
    // The first line names the columns; the second, that a file without a name column empties stored names.
    const [columns, names] = wide.stderr.split('\n');
    expect(`${columns}\n`).toBe(
      warningLine(
        `40 columns are sent as custom fields because nothing maps them: ${vendor.slice(0, 10).join(', ')} (… and 30 more); the service ignores a key the list does not define, and a value that is not one of a field's options, without an error: create any the list lacks (email customfields create --list ${LIST} --name "V1" --type <DataType>, …), or leave them out with --only-mapped, or --map "V1=-" one by one`,
      ),
    );
    expect(names).toMatch(/wide\.csv has no name column/);
  });

});
