// Rewrites a HAR file `redocly respect` wrote, before anyone reads it: each request and answer routed to its operation,
// its marked values (x-svc-data phi and secret) replaced by the placeholders where they stand on both sides (the
// requests carry what the workflows and the server's answers gave them), credentials masked, query strings and bodies
// the contract cannot read named by their content type and size only.
import { readFile, writeFile } from "node:fs/promises";
import { isObject, readJson } from "../contract/json.ts";
import type { Redactor } from "../contract/redact.ts";

export interface HarPair {
  name: string;
  value: string;
}
export interface HarEntry {
  request: {
    method: string;
    url: string;
    headers?: HarPair[];
    queryString?: HarPair[];
    cookies?: HarPair[];
    postData?: { mimeType?: string; text?: string; params?: unknown[] };
  };
  response?: { status: number; headers?: HarPair[]; cookies?: HarPair[]; content?: { mimeType?: string; text?: string }; redirectURL?: string };
}

/** A body's text with its marked values removed, or what may be said of it when it is not JSON (and marked values are not shown). */
function redactBody(text: string | undefined, mimeType: string | undefined, redactor: Redactor, redact: (body: unknown) => unknown): string | undefined {
  if (text === undefined || text === "") return text;
  const read = readJson(text);
  if (read === undefined) return redactor.show ? text : `[${redactor.opaque({ text, contentType: mimeType ?? null })}]`;
  return redactor.text(JSON.stringify(redact(read.value)));
}

const headers = (pairs: HarPair[] | undefined, redactor: Redactor): HarPair[] | undefined =>
  pairs?.map((pair) => ({ ...pair, value: redactor.text(redactor.header(pair.name, pair.value)) }));

export function redactHarEntry(entry: HarEntry, redactor: Redactor): HarEntry {
  const { request, response } = entry;
  const op = redactor.operationAt(request.method, request.url);
  // What either side holds in marked fields first: a value one side sent may stand in the other's free text.
  redactor.learnRequest(request.method, request.url, readJson(request.postData?.text)?.value);
  if (response !== undefined) redactor.learnResponse(op, response.status, readJson(response.content?.text)?.value);
  // Headers first: a credential learnt there is masked wherever it is echoed in a body.
  const requestHeaders = headers(request.headers, redactor);
  const responseHeaders = headers(response?.headers, redactor);
  const postData =
    request.postData === undefined
      ? undefined
      : { ...request.postData, text: redactBody(request.postData.text, request.postData.mimeType, redactor, (body) => redactor.request(op, body)) };
  const content =
    response?.content === undefined
      ? undefined
      : {
          ...response.content,
          text: redactBody(response.content.text, response.content.mimeType, redactor, (body) => redactor.response(op, response.status, body)),
        };
  const url = redactor.url(request.method, request.url);
  return {
    ...entry,
    request: {
      ...request,
      url,
      ...(requestHeaders === undefined ? {} : { headers: requestHeaders }),
      // The query as the redacted URL has it, so that a marked parameter is not left behind in the list.
      ...(request.queryString === undefined
        ? {}
        : { queryString: [...new URL(url, "http://placeholder.invalid").searchParams].map(([name, value]) => ({ name, value })) }),
      ...(request.cookies === undefined ? {} : { cookies: request.cookies.map((cookie) => ({ ...cookie, value: redactor.header("cookie", cookie.value) })) }),
      ...(postData === undefined ? {} : { postData }),
    },
    ...(response === undefined
      ? {}
      : {
          response: {
            ...response,
            ...(responseHeaders === undefined ? {} : { headers: responseHeaders }),
            ...(response.cookies === undefined
              ? {}
              : { cookies: response.cookies.map((cookie) => ({ ...cookie, value: redactor.header("set-cookie", cookie.value) })) }),
            ...(content === undefined ? {} : { content }),
            ...(response.redirectURL === undefined ? {} : { redirectURL: redactor.text(response.redirectURL) }),
          },
        }),
  };
}

/** Rewrites the HAR file in place; a file that is not a HAR is replaced by a note saying so, not left as it was. */
export async function redactHarFile(file: string, redactor: Redactor): Promise<void> {
  let har: unknown;
  try {
    har = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    har = undefined;
  }
  if (!isObject(har) || !isObject(har.log) || !Array.isArray(har.log.entries)) {
    await writeFile(
      file,
      `${JSON.stringify({ log: { version: "1.2", creator: { name: "svc verify", version: "1" }, entries: [], comment: "respect wrote no HAR verify could read; its content is not kept" } }, null, 2)}\n`,
    );
    return;
  }
  // Two passes: the second removes from every entry what any entry taught (a link token made by one step, sent by the next).
  const entries = har.log.entries as HarEntry[];
  entries.forEach((entry) => redactHarEntry(entry, redactor));
  const log = { ...har.log, entries: entries.map((entry) => redactHarEntry(entry, redactor)) };
  await writeFile(file, `${JSON.stringify({ ...har, log }, null, 2)}\n`);
}
