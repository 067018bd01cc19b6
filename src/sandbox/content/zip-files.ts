// Template ZIP archives (service-spec.md "Template (create request)":
// ZipFileURL; 4006 invalid ZIP URL, 4350 files referenced by the HTML missing
// from the ZIP). The archive is read with fflate; only its directory is
// needed, so no entry is decompressed.
import { unzipSync } from 'fflate';
import { readMarkup } from './markup.js';

/** The file names of a ZIP archive; undefined when the bytes are not a ZIP archive. */
export function zipEntryNames(bytes: Uint8Array): string[] | undefined {
  const names: string[] = [];
  try {
    unzipSync(bytes, {
      filter(file) {
        names.push(file.name);
        return false;
      },
    });
  } catch {
    return undefined;
  }
  return names;
}

/**
 * Relative files the HTML refers to (img/script/input src, background
 * attributes, <link href>), without query or fragment.
 */
function referencedFiles(html: string): string[] {
  const files = new Set<string>();
  for (const tag of readMarkup(html).tags) {
    if (tag.kind !== 'open') continue;
    const values = [tag.attrs.src, tag.attrs.background, tag.name === 'link' ? tag.attrs.href : undefined];
    for (const raw of values) {
      const value = raw?.trim();
      if (!value || /^[a-z][a-z0-9+.-]*:/i.test(value) || value.startsWith('//') || value.startsWith('#') || value.startsWith('[') || value.startsWith('/')) continue;
      let path = value.replace(/[?#].*$/, '').replace(/^(\.\/)+/, '');
      try {
        path = decodeURIComponent(path);
      } catch {
        // keep it as written
      }
      if (path) files.add(path);
    }
  }
  return [...files];
}

/** 4350: files the HTML refers to that the ZIP does not hold (an entry may sit under one top folder). */
export function missingFromZip(html: string, entries: readonly string[]): string[] {
  const names = new Set(entries.map((e) => e.replace(/\\/g, '/')));
  const stripped = new Set([...names].map((e) => e.replace(/^[^/]+\//, '')));
  return referencedFiles(html).filter((file) => !names.has(file) && !stripped.has(file));
}
