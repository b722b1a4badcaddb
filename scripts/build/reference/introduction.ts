// Writes the reference's introduction from the contract itself: base addresses, the credentials and which operations
// take which (from `security`), the health data and secrets it marks, paging, the error body and the statuses every
// operation may answer, the badges, and how events are signed and delivered; so none of it can drift from the contract.
import { Credentials } from "../../../src/contract/credentials.ts";
import { isObject, type JsonObject } from "../../../src/contract/json.ts";
import { deref, listOperations, type ContractOperation } from "../../../src/contract/operations.ts";
import { collectionMarks } from "../../../src/contract/collections.ts";
import { responseLinks } from "../../../src/contract/links.ts";
import { linkInputs } from "./link-notes.ts";
import { operationRows } from "../generate-tables.ts";
import { TRANSPORT_RESPONSES } from "../decorate.ts";
import { BADGES } from "./badges.ts";
import { DATA_LABELS, DATA_MARK, markedName, markedNodes, REMOVED } from "./data-notes.ts";
import { serverUrl } from "./code-samples.ts";
import { mockSection } from "./mock-section.ts";

/** The document's name for each credential (section 5). A new security scheme must be named here. */

/** A cell's text: one line, pipes escaped. */
function cell(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").replaceAll("|", "\\|");
}

function firstSentence(text: unknown): string {
  const plain = String(text ?? "")
    .replace(/\s*\n\s*/g, " ")
    .trim();
  const end = plain.search(/\.(\s|$)/);
  return end < 0 ? plain : plain.slice(0, end + 1);
}

function table(header: string[], rows: string[][]): string {
  return [`| ${header.join(" | ")} |`, `|${header.map(() => "---").join("|")}|`, ...rows.map((row) => `| ${row.map(cell).join(" | ")} |`)].join("\n");
}

/** A section of the introduction: its heading, then each block (paragraph or table) apart. */
function section(title: string, ...blocks: string[]): string {
  return [`## ${title}`, ...blocks].join("\n\n");
}

function serversSection(document: JsonObject): string {
  const rows = ((document.servers ?? []) as JsonObject[]).map((server) => {
    const variables = (server.variables ?? {}) as Record<string, { description?: string }>;
    const notes = Object.entries(variables).map(([name, variable]) => ` Replace it with your region's (\`${name}\`: ${variable.description ?? ""})`);
    // A base address is copied whole: its own class keeps it from breaking inside (reference.css's .svc-url).
    return [`<code class="svc-url">${serverUrl(server)}</code>`, `${String(server.description ?? "")}${notes.join("")}`];
  });
  return section(
    "Base URL",
    "Every path in this reference follows a base URL, such as `GET <base URL>/v3/lab_tests/labs`. Each operation's request samples use the service's; the mock answers the same paths.",
    table(["base URL", "what it is"], rows),
  );
}

/** The operations a list names: whole tags where every operation of the tag is in it, single operations otherwise. */
function describeOperations(all: ContractOperation[], taken: ContractOperation[]): string {
  const tagOf = (op: ContractOperation) => String(((op.operation.tags ?? []) as string[])[0] ?? "");
  const tags = [...new Set(taken.map(tagOf))];
  const parts = tags.flatMap((tag) => {
    const ofTag = all.filter((op) => tagOf(op) === tag);
    const takenOfTag = taken.filter((op) => tagOf(op) === tag);
    if (takenOfTag.length === ofTag.length) return [`every ${tag} operation`];
    return takenOfTag.map((op) => `${String(op.operation.summary)} (\`${op.method} ${op.template}\`)`);
  });
  return `${taken.length} operation${taken.length === 1 ? "" : "s"}: ${parts.join(", ")}`;
}

function credentialsSection(document: JsonObject): string {
  const operations = listOperations(document);
  const credentials = new Credentials(document);
  const rows = credentials.all.map(({ scheme, label, header, replacedBy }) => {
    const taken = operations.filter((op) => op.securityAlternatives.some((names) => names.includes(scheme)));
    const status = replacedBy === undefined ? "current" : `**Deprecated**: send \`${credentials.scheme(replacedBy)!.header}\` instead`;
    return [`${label} (\`${scheme}\`)`, `\`${header}\``, describeOperations(operations, taken), status];
  });
  return section(
    "Authentication",
    "Every credential is a request header. Each operation takes the one its Authorizations box names; a call without it, with it empty, or with another kind of credential gets `401` (`unauthorized`). Request samples carry a placeholder (`YOUR_TEAM_API_KEY`, ...) to replace with your own.",
    table(["credential", "header", "taken by", "status"], rows),
  );
}

/** What the marks are, how many there are, and what the package does with marked values; the secrets by name. */
function dataSection(document: JsonObject): string {
  const marked = markedNodes(document).filter(({ pointer }) => pointer.startsWith("/components/"));
  const count = (kind: string) => marked.filter((entry) => entry.kind === kind).length;
  const secrets = marked.filter((entry) => entry.kind === "secret").map((entry) => `\`${markedName(entry.pointer)}\``);
  return section(
    "Health data and secrets",
    `The contract marks what each value holds in \`${DATA_MARK}\`: \`phi\` for an end user's identity or health data (names, dates of birth, contact details, addresses, insurance ids, appointments, lab result interpretations, every summary and event's data), \`secret\` for what grants access (created keys, tokens, MFA codes, webhook secrets and header values, client secrets, ETL destination keys), and \`none\` for the other properties of the same schemas. A property that contains marked values, such as an object or a list, is marked with the strongest kind inside it and counts as such as a whole. This reference notes each one in its description (**${DATA_LABELS.phi}.** or **${DATA_LABELS.secret}.**): ${count("phi")} properties hold health data and ${count("secret")} hold secrets, which are ${secrets.join(", ")}.`,
    [
      "What the package does with marked values:",
      "- The client's error messages never carry an answer's body; a redirect is never followed, so no credential is sent to another origin.",
      `- verify's console, JSON and JUnit reports and HAR files, and the mock's log, write a health-data value as \`${REMOVED.phi}\` and a secret as \`${REMOVED.secret}\`, remove a value removed once wherever a message echoes it, and write a credential as at most its last four characters; an answer verify cannot read as JSON is named by its size, not quoted. \`--show-data\` writes them as they came, for a server on a loopback address only.`,
      "- The one value printed on purpose: `npm run events` without `--secret` prints the signing secret it made, for the person running it to give to the receiver.",
    ].join("\n"),
  );
}

/** Each filter of the contract: its operation, parameter, list, field and how it matches. */
function filterRows(document: JsonObject): string[][] {
  return listOperations(document).flatMap((op) =>
    collectionMarks(document, op).filters.map((filter) => [
      `\`${op.method} ${op.template}\``,
      `\`${filter.parameter}\``,
      `\`${filter.items}\``,
      `\`${filter.field}\``,
      filter.match === "all" ? "it holds every value given (repeat the parameter)" : "it is the value given",
    ]),
  );
}

function pagingSection(document: JsonObject): string {
  const paged = operationRows(document).filter((row) => row.paging !== undefined);
  const rows = paged.map((row) => [`\`${row.method} ${row.template}\``, `\`${row.paging![0]}\``, String(row.paging![1]), String(row.paging![2])]);
  return section(
    "Paging",
    "A paged list takes `page` (counting from 1, default 1) and `size` (items per page) as query parameters, and answers one page: at most `size` items, `page` and `size` as asked, `total` (items across all pages) and `pages` (`total` divided by `size`, rounded up); a page past the last is empty. Each of the four numbers may be `null` where the service does not report it; then read pages until one is shorter than `size`. The package's client does this for you: `client.paginate(...)` yields every item, page after page. The contract marks each paged list with `x-svc-paging`.",
    table(["operation", "items", "default size", "largest size"], rows),
    "Some query parameters filter a list (marked `x-svc-filter`): the answer keeps only the items whose field matches, before it is cut into pages. A filter left out filters nothing. The mock pages and filters its examples the same way.",
    table(["operation", "parameter", "keeps the items of", "whose field", "when"], filterRows(document)),
  );
}

/**
 * Each link an answer declares (OpenAPI `links`): what a call leaves behind, and how to reach it next. The claim about
 * state covers only the links without `x-svc-state: none`; the others are listed apart, as ids handed on.
 */
function linksSection(document: JsonObject): string {
  const rowsOf = (state: boolean) =>
    listOperations(document).flatMap((op) =>
      Object.keys(op.responses).flatMap((status) =>
        responseLinks(document, op, status)
          .filter((link) => link.state === state)
          .map((link) => {
            const credential = link.credential === undefined ? "" : ` (made with \`${link.credential.replace("$response.body#/", "")}\` as its credential)`;
            return [`\`${op.operationId}\` \`${status}\``, `\`${link.operationId}\`${credential}`, linkInputs(link), firstSentence(link.description)];
          }),
      ),
    );
  return section(
    "Links between operations",
    "What a call makes is read, changed and deleted by other operations, and an answer says which with OpenAPI `links`: a created team is read by Get Team with the `id` its answer gave, and after Delete Team reading it is `404`; a created team API key is taken at once by any call made with it, and refused with `401` once deleted (`x-svc-credential` names the field that holds the credential). The stateful mock keeps the relations of this first table; `npm run verify` checks a server against each of them.",
    table(["answer", "links to", "with", "what it says"], rowsOf(true)),
    "Every other id an answer carries is handed by a link to each operation that takes it (marked `x-svc-state: none`): a generic stateful tester follows them instead of guessing ids. They say where an id goes, not what a server keeps. A credential cannot be handed by a standard link: Complete provider MFA and calls made with a created key are reached through the Arazzo workflows.",
    table(["answer", "links to", "with", "what it says"], rowsOf(false)),
  );
}

function errorsSection(document: JsonObject): string {
  const schemas = (document.components as JsonObject).schemas as JsonObject;
  const fieldRows = (schemaName: string) => {
    const schema = deref(document, schemas[schemaName]);
    const required = new Set((schema.required ?? []) as string[]);
    return Object.entries((schema.properties ?? {}) as JsonObject).map(([field, property]) => {
      const own = isObject(property) ? property : {};
      const resolved = deref(document, property);
      return [
        `\`${schemaName === "ErrorBody" ? field : `details[].${field}`}\``,
        required.has(field) ? "always" : "when it applies",
        firstSentence(own.description ?? resolved.description),
      ];
    });
  };
  const transport = (document[TRANSPORT_RESPONSES] ?? {}) as Record<string, unknown>;
  const unauthorized = ((document.components as JsonObject).responses as JsonObject | undefined)?.Unauthorized;
  const everywhere: [string, unknown][] = [["401", unauthorized], ...Object.entries(transport)];
  const statusRows = everywhere
    .filter(([, response]) => response !== undefined)
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([status, response]) => [`\`${status}\``, firstSentence(deref(document, response).description)]);
  return section(
    "Errors",
    "Every error answer, whatever its status, has the same JSON body (`ErrorBody`): branch on `code`, show `message` to developers, and read `details` for the parts of the request that break the contract.",
    table(["field", "present", "what it holds"], [...fieldRows("ErrorBody"), ...fieldRows("ErrorDetail")]),
    "Besides the statuses each operation lists, every operation may answer these (`401` where it takes a credential):",
    table(["status", "when"], statusRows),
  );
}

function badgesSection(): string {
  const meanings: Record<keyof typeof BADGES, string> = {
    // What a team not enabled gets is said once, in the description's "Reading this reference"; a badge says where.
    closedBeta: "Only teams the service has enabled may call it.",
    closedBetaValues: "Some values it takes are in closed beta; the field lists them.",
    provisional: "The interface document does not show it; the package designed the obvious shape, which may change.",
    deprecated: "Still served, to be removed; its description names what replaces it.",
    deprecatedParts: "Some fields or parameters it sends or answers are deprecated; each says what replaces it.",
  };
  const rows = (Object.keys(BADGES) as (keyof typeof BADGES)[]).map((key) => [`**${BADGES[key].name}**`, meanings[key]]);
  return section(
    "Badges",
    "Operation titles and navigation entries carry these badges, derived from the contract's own markings:",
    table(["badge", "meaning"], rows),
  );
}

function eventsSection(document: JsonObject): string {
  const tag = ((document.tags ?? []) as JsonObject[]).find((entry) => entry.name === "Events");
  if (tag === undefined) throw new Error("reference: the contract has no Events tag to take the events' introduction from");
  return section("Events", String(tag.description).trim());
}

/**
 * Inserts the generated sections into `info.description`: base URL, authentication, health data and secrets, paging and errors before "Reading
 * this reference"; the badges, events and the mock after it, before the change history.
 */
export function writeIntroduction(document: JsonObject): void {
  const info = document.info as JsonObject;
  const description = String(info.description ?? "");
  const reading = description.indexOf("## Reading this reference");
  const history = description.indexOf("## Service change history");
  if (reading < 0 || history < reading) throw new Error("reference: info.description needs '## Reading this reference' before '## Service change history'");
  const before = [
    serversSection(document),
    credentialsSection(document),
    dataSection(document),
    pagingSection(document),
    linksSection(document),
    errorsSection(document),
  ].join("\n\n");
  const after = [badgesSection(), eventsSection(document), mockSection(section)].join("\n\n");
  info.description = `${description.slice(0, reading)}${before}\n\n${description.slice(reading, history)}${after}\n\n${description.slice(history)}`;
}
