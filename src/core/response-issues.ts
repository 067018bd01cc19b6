// Why an answer did not fit its schema, in words a user can act on (CLI.md "lenient reading").
// zod/mini has no message catalogue, so the words come from the issue's code and the value found.

export interface SchemaIssue {
  path: PropertyKey[];
  message: string;
  code?: string;
  expected?: string;
  minimum?: unknown;
  errors?: SchemaIssue[][];
}

/** The path is left out when the whole answer is wrong. */
export function describeIssue(issue: SchemaIssue | undefined, data: unknown): string {
  if (!issue) return 'the answer does not have the expected shape';
  const deeper = deepestBranchIssue(issue);
  if (deeper) return describeIssue({ ...deeper, path: [...issue.path, ...deeper.path] }, data);
  const where = formatPath(issue.path);
  const found = valueAt(data, issue.path);
  const got = found.present ? `got ${describeValue(found.value)}` : issue.path.length ? 'got nothing (the field is missing)' : 'got an empty answer';
  return `${where ? `${where}: ` : ''}${expectation(issue)}, ${got}`;
}

/** The union branch that went furthest into the value before failing: the user's problem is there. */
function deepestBranchIssue(issue: SchemaIssue): SchemaIssue | undefined {
  if (issue.code !== 'invalid_union') return undefined;
  let best: SchemaIssue | undefined;
  for (const branch of issue.errors ?? []) {
    const first = branch[0];
    if (first && first.path.length > (best?.path.length ?? 0)) best = first;
  }
  return best;
}

function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}

function expectation(issue: SchemaIssue): string {
  if (issue.message && !issue.message.startsWith('Invalid input')) return issue.message;
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${typeName(issue.expected)}`;
    case 'too_small':
      return issue.minimum === 1 ? 'expected a non-empty value' : `expected at least ${String(issue.minimum)}`;
    case 'invalid_union': {
      const names = new Set<string>();
      for (const branch of issue.errors ?? []) {
        const first = branch[0];
        if (first && first.path.length === 0) names.add(expectation(first).replace(/^expected /, ''));
      }
      return names.size ? `expected ${[...names].join(' or ')}` : 'expected another kind of value';
    }
    default:
      return 'expected another kind of value';
  }
}

function typeName(expected: string | undefined): string {
  switch (expected) {
    case 'array':
      return 'an array';
    case 'object':
    case 'record':
      return 'an object';
    case 'boolean':
      return 'true or false';
    case 'int':
      return 'an integer';
    case undefined:
      return 'another kind of value';
    default:
      return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
  }
}

function valueAt(data: unknown, path: readonly PropertyKey[]): { present: boolean; value?: unknown } {
  let value = data;
  for (const key of path) {
    if (value === null || typeof value !== 'object' || !(key in (value as object))) return { present: false };
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value === undefined ? { present: false } : { present: true, value };
}

const MAX_SHOWN = 60;
const MAX_KEYS = 6;

/** Never a whole body (ENGINEERING.md). */
function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length ? `an array of ${value.length}` : 'an empty array';
  switch (typeof value) {
    case 'string': {
      const shown = JSON.stringify(value.length > MAX_SHOWN ? `${value.slice(0, MAX_SHOWN)}…` : value);
      return value === '' ? 'an empty string' : shown;
    }
    case 'object': {
      const keys = Object.keys(value as object);
      if (!keys.length) return 'an empty object';
      const listed = keys.slice(0, MAX_KEYS).join(', ');
      return `an object with keys ${listed}${keys.length > MAX_KEYS ? ', …' : ''}`;
    }
    default:
      return String(value);
  }
}
