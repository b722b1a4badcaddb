// Where verify's lines go: the console for the command, a collector for a test that runs it in-process. A leaf, so
// that a run and a replay both write through it without importing each other.
export interface VerifyOutput {
  log(line: string): void;
  error(line: string): void;
  /** A line that replaces the last one, saying how far the run is (the command writes it to a terminal only). */
  progress?(line: string): void;
}
