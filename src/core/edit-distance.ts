// How far apart two names are (Levenshtein): for "did you mean" after a typo.
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}

/** The names close enough to `word` to be what was meant: at most a third of a name's letters differ. */
export function nearNames(word: string, names: readonly string[]): string[] {
  return names.filter((n) => editDistance(n.toLowerCase(), word.toLowerCase()) <= Math.max(1, Math.floor(n.length / 3)));
}
