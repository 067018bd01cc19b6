// Files a template's HTML refers to that its ZIP lacks (4350), read from the
// ZIP's central directory.
import { describe, expect, it } from 'vitest';
import { missingFromZip, zipEntryNames } from '../../../src/sandbox/content/zip-files.js';
import { zipOf } from '../../helpers/content-fixtures.js';

describe('ZIP contents (4350)', () => {
  it('reads entry names from the central directory and finds files the HTML refers to but the ZIP lacks', () => {
    const zip = zipOf(['images/photo.jpg', 'style.css']);
    const names = zipEntryNames(zip)!;
    expect(names).toEqual(['images/photo.jpg', 'style.css']);
    const html = '<img src="images/photo.jpg"><img src="./images/missing.png?v=2"><link href="style.css"><img src="https://cdn.example.com/x.png"><td background="bg.gif">';
    expect(missingFromZip(html, names)).toEqual(['images/missing.png', 'bg.gif']);
    expect(missingFromZip('<img src="a.png">', ['template/a.png'])).toEqual([]);
  });

  it('says when bytes are not a ZIP archive', () => {
    expect(zipEntryNames(Buffer.from('not a zip at all, really not'))).toBeUndefined();
  });
});
