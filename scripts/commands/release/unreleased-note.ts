// The README's note for the time before the first release (the package is not on the registry yet, and how to pack a
// clone instead): kept between two markers, true while the version is 0.x, and taken out by the release that makes 1.0.0.

export const NOTE_START = "<!-- until the first release: `npm run release -- --write` removes this note when it makes 1.0.0 -->";
export const NOTE_END = "<!-- end of the note until the first release -->";

/** The note between its markers (markers excluded), or undefined when the README has none. */
export function unreleasedNote(readme: string): string | undefined {
  const start = readme.indexOf(NOTE_START);
  const end = readme.indexOf(NOTE_END);
  return start < 0 || end < start ? undefined : readme.slice(start + NOTE_START.length, end).trim();
}

/** The README a release of `version` ships: the note gone once the version is 1.0.0 or later, else as it is. */
export function readmeForRelease(readme: string, version: string): string {
  if (Number(version.split(".")[0]) === 0) return readme;
  const start = readme.indexOf(NOTE_START);
  const end = readme.indexOf(NOTE_END);
  if (start < 0 || end < start) return readme;
  // The note and the blank line that set it apart go with it.
  return readme.slice(0, start).replace(/\n+$/, "\n") + readme.slice(end + NOTE_END.length).replace(/^\n+/, "\n");
}
