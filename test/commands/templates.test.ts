import { describe, expect, it } from 'vitest';
import { jsonError, useCommandSandbox } from '../helpers/sandbox.js';

const HTML = 'https://content.example.com/t.html';
const ZIP = 'https://content.example.com/t.zip';

const s = useCommandSandbox();

describe('templates create', () => {
  it('POSTs Name, HtmlPageURL and ZipFileURL to /email/templates and prints the template id', async () => {
    const r = await s.emailSent(['templates', 'create', '--name', 'Monthly', '--html-url', HTML, '--zip-url', ZIP]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.sent).toHaveLength(1);
    expect(r.sent[0]).toMatchObject({ method: 'POST', path: '/email/templates', status: 201 });
    expect(r.sent[0]!.body).toEqual({ Name: 'Monthly', HtmlPageURL: HTML, ZipFileURL: ZIP });
    const id = r.stdout.trim();
    expect(r.stdout).toBe(`${id}\n`);
    expect(s.sandbox.state().templates[id]?.Name).toBe('Monthly');
  });

  it('prints the id as the JSON string the service answered with --json', async () => {
    const r = await s.email(['templates', 'create', '--name', 'Weekly', '--html-url', HTML, '--zip-url', ZIP, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(s.sandbox.state().templates[JSON.parse(r.stdout)]?.Name).toBe('Weekly');
  });

  it('refuses a missing or blank name with 4002', async () => {
    await s.expectRefused(['templates', 'create', '--html-url', HTML, '--zip-url', ZIP], 4002, /--name is required/);
    await s.expectRefused(['templates', 'create', '--name', ' ', '--html-url', HTML, '--zip-url', ZIP], 4002);
  });

  it('refuses a missing HTML page URL with 4004 and an invalid one with 4005', async () => {
    await s.expectRefused(['templates', 'create', '--name', 'T', '--zip-url', ZIP], 4004, /--html-url is required/);
    await s.expectRefused(['templates', 'create', '--name', 'T', '--html-url', 'example.com/t.html', '--zip-url', ZIP], 4005, /--html-url must be an absolute http/);
  });

  it('refuses a missing or invalid ZIP URL with 4006', async () => {
    await s.expectRefused(['templates', 'create', '--name', 'T', '--html-url', HTML], 4006, /--zip-url is required/);
    await s.expectRefused(['templates', 'create', '--name', 'T', '--html-url', HTML, '--zip-url', 'file.zip'], 4006, /--zip-url must be/);
  });

  it('surfaces the service refusing an invalid name with 4003', async () => {
    const r = await s.email(['templates', 'create', '--name', '<b>Bold</b>', '--html-url', HTML, '--zip-url', ZIP, '--json']);
    expect(r.code).toBe(1);
    expect(jsonError(r.stderr)).toMatchObject({ status: 400, code: 4003 });
  });

  it('never repeats the creation after a dropped connection', async () => {
    s.sandbox.failNext({ method: 'POST', path: /templates/, drop: true });
    const r = await s.emailSent(['templates', 'create', '--name', 'Dropped', '--html-url', HTML, '--zip-url', ZIP]);
    expect(r.code).toBe(1);
    expect(r.sent).toHaveLength(1);
  });
});
