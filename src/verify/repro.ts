// A failed request as a `curl` line a reader can run again: the credential as an environment variable ($SVC_API_KEY),
// never its value, and everything else as it was sent (the redactor, which every check's words go through, then
// writes marked values as their placeholders).
import type { CredentialOption } from "../contract/credentials.ts";
import type { HttpRequest } from "./http.ts";

/** The environment variable a reproduction reads each credential from. */
export const CREDENTIAL_VARIABLES: Record<CredentialOption, string> = {
  apiKey: "SVC_API_KEY",
  managementKey: "SVC_MANAGEMENT_KEY",
  linkToken: "SVC_LINK_TOKEN",
};

/** A shell word in single quotes: nothing inside is expanded. */
function quoted(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** The request as one line of shell; `credential` names the header the credential went in, read from its variable. */
export function curlLine(request: HttpRequest, credential?: { header: string; option: CredentialOption }): string {
  const words = ["curl", "-sS", "-i", "-X", request.method, quoted(request.url)];
  for (const [name, value] of Object.entries(request.headers)) {
    if (credential !== undefined && name.toLowerCase() === credential.header.toLowerCase()) {
      // Double quotes: the variable is expanded, and nothing of the key is written.
      words.push("-H", `"${name}: $${CREDENTIAL_VARIABLES[credential.option]}"`);
    } else words.push("-H", quoted(`${name}: ${value}`));
  }
  if (request.body !== undefined) words.push("--data-raw", quoted(request.body));
  return words.join(" ");
}
