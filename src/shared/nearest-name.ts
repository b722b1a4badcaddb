// The known name nearest to one given by mistake (a misspelt option, flag or path), so that a message can name the fix,
// and the one sentence the package's commands and entries say of an unknown option.
// Shipped in the mock's entries, and in the client's unknown-path message (generated/client/unknown-route.js), a file
// the client loads only when a call names a path it does not have: run only when something is already wrong.

/** The number of single-character insertions, deletions and substitutions that turn `a` into `b` (Levenshtein). */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The candidate nearest to `given`, when it is near enough to be what was meant: at most a third of the longer name's
 * characters away (so `statefull` finds `stateful`, and a name of another family finds nothing); ties go to the first.
 */
export function nearestName(given: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = editDistance(given, candidate);
    if (distance < bestDistance && distance <= Math.max(1, Math.floor(Math.max(given.length, candidate.length) / 3))) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** `statefull (did you mean stateful?)`, or the name alone when none is near; `prefix` is `--` for a flag. */
export function withNearest(given: string, known: Iterable<string>, prefix = ""): string {
  const near = nearestName(given, known);
  return `${prefix}${given}${near === undefined ? "" : ` (did you mean ${prefix}${near}?)`}`;
}

/** `unknown option statefull (did you mean stateful?)`; `prefix` is `--` for a flag. */
export function unknownOption(given: string, known: Iterable<string>, prefix = ""): string {
  return `unknown option ${withNearest(given, known, prefix)}`;
}

/** Node's parseArgs error in the commands' words: an unknown flag named with the nearest of `flags`; any other as Node says it. */
export function parseArgsProblem(error: unknown, flags: Iterable<string>): string {
  const { code, message } = error as { code?: string; message: string };
  // parseArgs names an unknown flag as `'--statefull'`.
  const unknown = code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" ? /'--?([^']+)'/.exec(message)?.[1] : undefined;
  return unknown === undefined ? message : unknownOption(unknown, flags, "--");
}
