/**
 * The catalog name a mistyped one most likely meant: the closest by edit distance (insert,
 * delete, replace, swap two neighbours), ignoring case; none when nothing is close enough
 * (more than a third of the name would have to change) or two names are equally close.
 */
export function closestName(name: string, candidates: readonly string[]): string | undefined {
  const wanted = name.toLowerCase();
  const limit = Math.max(1, Math.floor(wanted.length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  let tied = false;
  for (const candidate of new Set(candidates)) {
    if (Math.abs(candidate.length - wanted.length) > limit) continue;
    const distance = editDistance(wanted, candidate.toLowerCase(), bestDistance);
    if (distance < bestDistance) [best, bestDistance, tied] = [candidate, distance, false];
    else if (distance === bestDistance) tied = true;
  }
  return tied ? undefined : best;
}

/** Optimal string alignment distance, giving up (returning `cap + 1`) once every path costs more than `cap`. */
function editDistance(a: string, b: string, cap: number): number {
  let beforeLast: number[] = [];
  let last = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(last[j]! + 1, row[j - 1]! + 1, last[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, beforeLast[j - 2]! + 1);
      row.push(d);
      rowMin = Math.min(rowMin, d);
    }
    if (rowMin > cap) return cap + 1;
    [beforeLast, last] = [last, row];
  }
  return last[b.length]!;
}

/** ` (did you mean "validate"?)` when one of `candidates` is close to `name`, else nothing: the end of an "unknown …" line. */
export function didYouMean(name: string, candidates: readonly string[]): string {
  const meant = closestName(name, candidates);
  return meant === undefined ? '' : ` (did you mean ${JSON.stringify(meant)}?)`;
}
