// createTemplate (src/api/templates.ts) against the sandbox.
import { describe, expect, it } from 'vitest';
import { createTemplate } from '../../src/api/templates.js';
import { useApiSandbox } from '../helpers/api-client.js';

const api = useApiSandbox();
const template = { Name: 'Monthly', HtmlPageURL: 'https://content.example.com/t.html', ZipFileURL: 'https://content.example.com/t.zip' };

describe('createTemplate', () => {
  it('posts the template once, even after a 500, and returns the new id as it fits', async () => {
    const { answer, requests } = await api.sent((c) => createTemplate(c, template));
    expect(requests).toEqual([{ method: 'POST', path: '/email/templates', query: {}, body: template, status: 201 }]);
    expect(answer).toMatchObject({ fits: true, data: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    api.sandbox.failNext({ status: 500 });
    expect((await api.sent((c) => createTemplate(c, { ...template, Name: 'Again' }))).requests).toHaveLength(1);
  });
});
