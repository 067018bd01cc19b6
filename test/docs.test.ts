// Every relative link of README.md and docs/*.md resolves, in the repository
// and in the installed package (docs/ ships with it), and no page points at a
// file the repository does not hold (issue 13.17).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** Relative link targets of a markdown page, without their #fragment. */
function links(page: string): string[] {
  const text = readFileSync(join(root, page), 'utf8').replace(/```[\s\S]*?```/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^[a-z]+:/i.test(target) && !target.startsWith('#'))
    .map((target) => target.split('#')[0]!)
    .filter(Boolean);
}

describe('documentation links', () => {
  it('every relative link of README.md and docs/ names a file of the repository', () => {
    const broken: string[] = [];
    for (const page of pages) for (const target of links(page)) if (!existsSync(join(root, dirname(page), target))) broken.push(`${page} → ${target}`);
    expect(broken).toEqual([]);
    expect(pages.flatMap(links).length).toBeGreaterThan(5);
  });

  it('no page refers to the contract or the service specification, which are not in the repository', () => {
    const mentions = pages.filter((page) => /\bCLI\.md\b|service-spec\.md/.test(readFileSync(join(root, page), 'utf8')));
    expect(mentions).toEqual([]);
  });

  it('the package ships docs/, so the README links resolve where it is installed', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    expect(pkg.files).toContain('docs/');
  });
});
