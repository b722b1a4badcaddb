// The types of up-to-date.js, which is plain JavaScript (so it runs before tsx loads) and so has no types of its own.
export declare const INPUTS_HASH: string;
/** The sha256 of these files' paths (from the repository's root) and bytes, in the order given. */
export declare function hashFiles(files: string[]): string;
/** The hash of everything generated/ is made from, as generated/inputs.sha256 records it. */
export declare function inputsHash(): Promise<string>;
/** Whether generated/ was made from exactly the current inputs (the reference aside, which is not committed). */
export declare function upToDate(): Promise<boolean>;
/** Whether the reference is missing or older than the bundle it shows or the scripts that make it from the bundle. */
export declare function referenceStale(): Promise<boolean>;
/** What of package.json the build reads (its registry fields and scripts make no artifact). */
export declare function manifestInput(text: string): string;
