import { describe, expect, it } from 'vitest';
import { createOutput } from '../../src/output/render.js';

describe('table columns marked fixed', () => {
  it('are never shrunk to fit the terminal; the other columns give way', async () => {
    let text = '';
    const out = createOutput({ format: 'table', isTTY: true, color: false, columns: 60, stdout: { write: (s) => ((text += String(s)), true) } });
    const id = 'c0000000-0000-4000-8000-000000000001';
    await out.print([{ ID: id, Name: 'A rather long campaign name that cannot fit' }], { columns: [{ key: 'ID', fixed: true }, { key: 'Name' }] });
    expect(text).toContain(id);
    expect(text).toContain('…');
    expect(Math.max(...text.split('\n').map((l) => l.length))).toBeLessThanOrEqual(60);
  });
});
