// Every library the build bundles into dist/ travels inside our package, so
// its licence notice must travel too (MIT, ISC and BSD all require it). The
// list comes from the build's metafile: a package is named here exactly when
// some file of it went into the bundle, nested copies included.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const LICENCE_FILE = /^(licen[cs]e|copying|notice)(\.(md|txt|markdown))?$/i;

/** The package folders (relative to root) behind the bundle's inputs, e.g. `node_modules/ajv`. */
export function bundledPackageDirs(metafile) {
  const dirs = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    const match = input.match(/^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//);
    if (match) dirs.add(match[1]);
  }
  return [...dirs].sort();
}

/** The notices file: one section a package with its name, version, licence and the text of its licence files. */
export function thirdPartyNotices(root, metafile) {
  const sections = [];
  for (const dir of bundledPackageDirs(metafile)) {
    const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
    const licence = typeof pkg.license === 'string' ? pkg.license : (pkg.license?.type ?? 'see below');
    const files = existsSync(join(root, dir)) ? readdirSync(join(root, dir)).filter((f) => LICENCE_FILE.test(f)).sort() : [];
    const texts = files.map((f) => readFileSync(join(root, dir, f), 'utf8').trim());
    if (!texts.length) texts.push(mitTextFor(pkg, dir));
    sections.push(`## ${pkg.name} ${pkg.version} — ${licence}\n\n${texts.join('\n\n')}\n`);
    for (const embedded of EMBEDDED[pkg.name] ?? []) sections.push(`## ${embedded.name}, inside ${pkg.name} — ${embedded.licence}\n\n${embedded.text}\n`);
  }
  return (
    `# Third-party notices\n\n` +
    `The program in this package bundles the following ${sections.length} libraries into dist/. ` +
    `Their licences and copyright notices follow.\n\n` +
    sections.join('\n')
  );
}

/**
 * A package that declares MIT but ships no licence file (seen: @nodable/entities)
 * still grants its licence on MIT's terms: reproduce the standard text with
 * the author its package.json names. Any other licence without a file stops the build.
 */
function mitTextFor(pkg, dir) {
  if (pkg.license !== 'MIT') throw new Error(`${dir} (${pkg.name}) ships no licence file: its ${pkg.license ?? 'unknown'} notice cannot be reproduced`);
  const author = typeof pkg.author === 'string' ? pkg.author : (pkg.author?.name ?? `the authors of ${pkg.name}`);
  return `(${pkg.name} ships no licence file; its package.json names the MIT License, whose text follows.)

${mitLicence(`Copyright (c) ${author}`)}`;
}

/** The MIT License's text under a copyright line. */
function mitLicence(copyright) {
  return `MIT License

${copyright}

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all
copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
SOFTWARE.`;
}

/**
 * Software a bundled package carries compiled inside it, whose notices the
 * package itself does not ship: jq-wasm is jq 1.8 compiled to WebAssembly,
 * with the regular-expression library Oniguruma and IBM's decNumber, which jq
 * builds in. Their licences ask for these notices wherever the code goes.
 */
const EMBEDDED = {
  'jq-wasm': [
    {
      name: 'jq',
      licence: 'MIT',
      text: mitLicence('Copyright (C) 2012 Stephen Dolan and the jq contributors'),
    },
    {
      name: 'Oniguruma',
      licence: 'BSD-2-Clause',
      text: `Copyright (c) 2002-2021 K.Kosako <kkosako0@gmail.com>
All rights reserved.

Redistribution and use in source and binary forms, with or without
modification, are permitted provided that the following conditions are met:

1. Redistributions of source code must retain the above copyright notice,
   this list of conditions and the following disclaimer.
2. Redistributions in binary form must reproduce the above copyright notice,
   this list of conditions and the following disclaimer in the documentation
   and/or other materials provided with the distribution.

THIS SOFTWARE IS PROVIDED BY THE AUTHOR AND CONTRIBUTORS "AS IS" AND ANY
EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE IMPLIED
WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE ARE
DISCLAIMED. IN NO EVENT SHALL THE AUTHOR OR CONTRIBUTORS BE LIABLE FOR ANY
DIRECT, INDIRECT, INCIDENTAL, SPECIAL, EXEMPLARY, OR CONSEQUENTIAL DAMAGES
(INCLUDING, BUT NOT LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES;
LOSS OF USE, DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER CAUSED AND
ON ANY THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY, OR TORT
(INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE OF THIS
SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.`,
    },
    {
      name: 'decNumber',
      licence: 'ICU',
      text: `Copyright (c) 1995-2010 International Business Machines Corporation and others
All rights reserved.

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, and/or sell copies of the
Software, and to permit persons to whom the Software is furnished to do so,
provided that the above copyright notice(s) and this permission notice appear
in all copies of the Software and that both the above copyright notice(s) and
this permission notice appear in supporting documentation.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT OF THIRD PARTY RIGHTS.
IN NO EVENT SHALL THE COPYRIGHT HOLDER OR HOLDERS INCLUDED IN THIS NOTICE BE
LIABLE FOR ANY CLAIM, OR ANY SPECIAL INDIRECT OR CONSEQUENTIAL DAMAGES, OR
ANY DAMAGES WHATSOEVER RESULTING FROM LOSS OF USE, DATA OR PROFITS, WHETHER
IN AN ACTION OF CONTRACT, NEGLIGENCE OR OTHER TORTIOUS ACTION, ARISING OUT
OF OR IN CONNECTION WITH THE USE OR PERFORMANCE OF THIS SOFTWARE.

Except as contained in this notice, the name of a copyright holder shall not
be used in advertising or otherwise to promote the sale, use or other
dealings in this Software without prior written authorization of the
copyright holder.`,
    },
  ],
};
