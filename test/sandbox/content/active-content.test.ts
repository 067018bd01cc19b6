// Active content (src/sandbox/content/active-content.ts): 4201 Flash, 4202
// script, 4203 Java, and 311 for script outside <script> (service-spec.md
// "Coded errors by area").
import { describe, expect, it } from 'vitest';
import { activeContentProblems, inlineScriptProblem } from '../../../src/sandbox/content/active-content.js';
import { readMarkup } from '../../../src/sandbox/content/markup.js';

const codes = (html: string) => activeContentProblems(readMarkup(html).tags).map((p) => p.code);
const inline = (html: string) => inlineScriptProblem(readMarkup(html).tags)?.code;

describe('activeContentProblems', () => {
  it.each([
    ['Flash by classid', '<object classid="clsid:D27CDB6E-AE6D-11cf-96B8-444553540000"></object>', [4201]],
    ['Flash by a movie param', '<object><param name="Movie" value="intro.swf#t=1"></object>', [4201]],
    ['Flash by data', '<object data="/a/b.SWF"></object>', [4201]],
    ['Java by object type', '<object type="application/x-java-applet"></object>', [4203]],
    ['Java by embed code', '<embed code="Main.jar">', [4203]],
    ['all three, in code order', '<applet code="A.class"></applet><script></script><embed src="m.swf">', [4201, 4202, 4203]],
    ['an image and a video', '<img src="a.png"><video src="v.mp4"></video>', []],
    ['a closing script tag alone', '</script>', []],
  ])('%s', (_name, html, expected) => {
    expect(codes(html)).toEqual(expected);
  });

  it('names the element in the message', () => {
    expect(activeContentProblems(readMarkup('<embed src="m.swf">').tags)[0]!.message).toContain('<embed>');
  });
});

describe('inlineScriptProblem', () => {
  it.each([
    ['<body onload="go()">', 311],
    ['<a href="  JavaScript:void(0)">x</a>', 311],
    ['<img src=x onerror=alert(1)>', 311],
    ['<details open>x</details>', undefined],
    ['<a href="https://example.com/javascript:">x</a>', undefined],
    ['<p on="x">x</p>', undefined],
  ])('%s → %s', (html, code) => {
    expect(inline(html)).toBe(code);
  });
});
