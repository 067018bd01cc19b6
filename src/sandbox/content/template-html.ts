// Content checks of a template's HTML (service-spec.md "Coded errors by
// area", templates: 4101-4132, 4201-4203, 4300-4307, 4401-4406). The markup
// is described in service-tags.ts. The data repeater codes (45xx) are not
// produced: the spec defines no data-repeater markup.
import { activeContentProblems } from './active-content.js';
import { readMarkup, type TagToken } from './markup.js';
import { ProblemList, type ContentProblem } from './problems.js';
import { TEXT_UNSUBSCRIBE_TAG } from './service-tags.js';
import { unsubscribeProblems } from './unsubscribe-tag.js';

type FrameName = 'repeater' | 'layout' | 'singleline' | 'multiline' | 'tableofcontents';

/** An open service tag that holds others. */
interface Frame {
  name: FrameName;
  /** Editable regions inside (for repeaters and layouts). */
  editable: number;
  titles: number;
  layouts: number;
  /** <table> depth where the frame opened, and rows of that table directly inside the frame. */
  tableDepth: number;
  rows: number;
}

const FRAME_NAMES: ReadonlySet<string> = new Set<FrameName>(['repeater', 'layout', 'singleline', 'multiline', 'tableofcontents']);

const UNCLOSED: Record<FrameName, [number, string]> = {
  repeater: [4102, 'A <repeater> tag has no closing </repeater> tag.'],
  layout: [4402, 'A <layout> tag has no closing </layout> tag.'],
  singleline: [4130, 'A <singleline> tag has no closing </singleline> tag.'],
  multiline: [4131, 'A <multiline> tag has no closing </multiline> tag.'],
  tableofcontents: [4108, 'A <tableofcontents> tag has no closing </tableofcontents> tag.'],
};

function isTrue(value: string | undefined): boolean {
  return value !== undefined && (value === '' || value.toLowerCase() === 'true' || value.toLowerCase() === 'repeatertitle');
}

/** One pass over the tags of a template, in document order, tracking the open service tags. */
class TemplateStructure {
  readonly problems = new ProblemList();
  private readonly stack: Frame[] = [];
  private tableDepth = 0;
  private editableTotal = 0;
  private titleTotal = 0;
  private repeaters = 0;
  private tocs = 0;
  /** Repeater items (layouts, or repeaters without layouts) with and without a title. */
  private itemsWithTitle = 0;
  private itemsWithoutTitle = 0;

  visit(tag: TagToken): void {
    if (tag.name === 'table' && !tag.selfClosing) this.tableDepth = tag.kind === 'open' ? this.tableDepth + 1 : Math.max(0, this.tableDepth - 1);
    else if (tag.name === 'tr' && tag.kind === 'open') this.countRow();
    else if (tag.name === 'img' && tag.kind === 'open' && 'editable' in tag.attrs) this.editableImage(tag);
    else if (tag.kind === 'open' && !tag.selfClosing) this.open(tag);
    else if (tag.kind === 'close' && FRAME_NAMES.has(tag.name)) this.close(tag.name as FrameName);
  }

  /** Problems left when the document ends: unclosed tags, then the document-wide rules. */
  finish(): void {
    for (const frame of this.stack.splice(0).reverse()) this.problems.add(...UNCLOSED[frame.name]);
    if (this.editableTotal === 0) this.problems.add(4101, 'The template has no editable region (<singleline>, <multiline> or <img editable>).');
    if (this.tocs > 0 && this.repeaters === 0) this.problems.add(4118, 'The template has a <tableofcontents> but no <repeater>.');
    if (this.titleTotal > 0 && this.tocs === 0) this.problems.add(4111, 'The template has repeater titles but no <tableofcontents> tags.');
    if (this.tocs > 0 && this.repeaters > 0 && this.titleTotal === 0) {
      this.problems.add(4132, 'The template has a <tableofcontents> but no repeater with a title (repeatertitle="true").');
    }
    if (this.tocs > 0 && this.itemsWithTitle > 0 && this.itemsWithoutTitle > 0) this.problems.add(4109, 'A repeater item has no repeater title tag while the others do.');
  }

  private open(tag: TagToken): void {
    switch (tag.name) {
      case 'repeater':
        if (this.nearest('repeater') >= 0) this.problems.add(4128, 'A <repeater> is nested in another <repeater>.');
        this.repeaters++;
        this.push('repeater');
        break;
      case 'layout': {
        const repeater = this.nearest('repeater');
        if (repeater < 0) this.problems.add(4401, 'A <layout> is not inside a <repeater>.');
        else this.stack[repeater]!.layouts++;
        if (!tag.attrs.label?.trim()) this.problems.add(4406, 'Not all layouts are labelled: a <layout> has no label attribute.');
        this.push('layout');
        break;
      }
      case 'singleline':
      case 'multiline':
        this.markEditable();
        if (isTrue(tag.attrs.repeatertitle)) this.countTitle();
        this.push(tag.name);
        break;
      case 'tableofcontents':
        this.tocs++;
        this.push('tableofcontents');
        break;
    }
  }

  private close(name: FrameName): void {
    const at = this.nearest(name);
    if (at < 0) {
      if (name === 'repeater') this.problems.add(4105, 'A closing </repeater> tag has no opening <repeater> tag.');
      if (name === 'layout') this.problems.add(4403, 'A closing </layout> tag has no opening <layout> tag.');
      return;
    }
    for (const frame of this.stack.splice(at + 1).reverse()) this.problems.add(...UNCLOSED[frame.name]);
    this.closeFrame(this.stack.pop()!);
  }

  private closeFrame(frame: Frame): void {
    if (frame.name === 'repeater') {
      if (frame.editable === 0) this.problems.add(4104, 'A <repeater> holds no editable region.');
      if (frame.layouts === 0) {
        if (frame.rows > 1) this.problems.add(4129, 'A table-based <repeater> holds several rows; wrap each row in a <layout>.');
        this.countItem(frame);
      }
    } else if (frame.name === 'layout') {
      if (frame.editable === 0) this.problems.add(4404, 'A <layout> holds no editable region.');
      if (frame.rows > 1) this.problems.add(4405, 'A table-based <layout> holds several rows; one row per layout.');
      this.countItem(frame);
    }
  }

  /** A repeater item closes: a layout, or a repeater without layouts. */
  private countItem(frame: Frame): void {
    if (frame.titles > 1) this.problems.add(4110, `A ${frame.name === 'layout' ? 'layout' : 'repeater'} holds ${frame.titles} repeater title tags; one is allowed.`);
    if (frame.titles > 0) this.itemsWithTitle++;
    else this.itemsWithoutTitle++;
  }

  private countTitle(): void {
    this.titleTotal++;
    const item = this.innermost((f) => f.name === 'layout' || f.name === 'repeater');
    if (item) item.titles++;
  }

  /** A <tr> counts for the innermost repeater or layout when it belongs to the table that frame opened in. */
  private countRow(): void {
    const item = this.innermost((f) => f.name === 'repeater' || f.name === 'layout');
    if (item && item.tableDepth === this.tableDepth && this.tableDepth > 0) item.rows++;
  }

  private editableImage(tag: TagToken): void {
    this.markEditable();
    if (!tag.attrs.width?.trim()) this.problems.add(4103, 'An editable <img> tag has no width attribute.');
  }

  private markEditable(): void {
    this.editableTotal++;
    for (const frame of this.stack) frame.editable++;
  }

  private push(name: FrameName): void {
    this.stack.push({ name, editable: 0, titles: 0, layouts: 0, tableDepth: this.tableDepth, rows: 0 });
  }

  private nearest(name: FrameName): number {
    for (let i = this.stack.length - 1; i >= 0; i--) if (this.stack[i]!.name === name) return i;
    return -1;
  }

  private innermost(match: (frame: Frame) => boolean): Frame | undefined {
    for (let i = this.stack.length - 1; i >= 0; i--) if (match(this.stack[i]!)) return this.stack[i];
    return undefined;
  }
}

/**
 * Problems of a template's HTML: the structural ones in document order, then
 * the document-wide ones, active content and the unsubscribe tag rules.
 */
export function checkTemplateHtml(html: string): ContentProblem[] {
  const markup = readMarkup(html);
  const structure = new TemplateStructure();
  for (const tag of markup.tags) structure.visit(tag);
  structure.finish();
  const { problems } = structure;
  problems.addAll(activeContentProblems(markup.tags));

  const unsubscribe = unsubscribeProblems(markup);
  if (unsubscribe.count === 0) {
    if (markup.comments.some((c) => /<unsubscribe\b/i.test(c))) problems.add(4301, 'The <unsubscribe> tag is hidden in an HTML comment.');
    else problems.add(4300, 'The template has no <unsubscribe> tag.');
  }
  problems.addAll(unsubscribe.problems);
  if (TEXT_UNSUBSCRIBE_TAG.test(markup.uncommented)) problems.add(4305, 'The text-style unsubscribe tag [unsubscribe] is used in the HTML; use <unsubscribe>…</unsubscribe>.');
  return problems.items;
}
