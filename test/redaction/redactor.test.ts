// The redactor every output of the package writes through: what the contract marks phi or secret becomes a placeholder
// wherever the mark stands (on the property, beside its $ref, on what it refers to, inside a list or a composition, or
// on a field the schema does not declare but a marked one shares its name with), echoes of it are removed from free
// text, and credentials are masked to their last four characters.
import { describe, expect, it } from "vitest";
import { maskCredential, Redactor, REMOVED } from "../../src/contract/redact.ts";
import type { JsonObject } from "../../src/contract/json.ts";
import { redactHarEntry } from "../../src/shared/har.ts";
import { contract, operation, requestExample, responseExample } from "../support/contract.ts";

const insurance = requestExample("createInsurance", "commercial_plan") as JsonObject;
const insured = insurance.insured as JsonObject;

describe("the redactor on the contract's own payloads", () => {
  it("removes every marked field of a request, beside a $ref too, and keeps the unmarked ones", () => {
    const redactor = new Redactor(contract);
    const out = redactor.request(operation("createInsurance"), insurance) as JsonObject;
    // is_primary is the one field of an insurance plan that says nothing about the person; relationship holds a listed
    // value of its enumeration, a word of the contract.
    const kept = ["is_primary", "relationship"];
    expect(out).toEqual(Object.fromEntries(Object.keys(insurance).map((key) => [key, kept.includes(key) ? insurance[key] : REMOVED.phi])));
    expect(Object.keys(out).length).toBeGreaterThanOrEqual(6);
    // Nothing of the insured person is left in the text of the redacted body.
    const text = JSON.stringify(out);
    for (const value of [insured.first_name, insured.dob, insured.email, insurance.member_id]) expect(text).not.toContain(String(value));
  });

  it("keeps what is not marked in an answer, and removes what is", () => {
    const redactor = new Redactor(contract);
    const answer = responseExample("createInsurance", 200, "commercial_plan") as JsonObject;
    const out = redactor.response(operation("createInsurance"), 200, answer) as JsonObject;
    expect(out.is_primary).toBe(answer.is_primary);
    expect(out.member_id).toBe(REMOVED.phi);
    expect(out.company).toBe(REMOVED.phi);
  });

  it("removes a secret as a secret: the link token an answer carries", () => {
    const redactor = new Redactor(contract);
    const out = redactor.response(operation("createLinkToken"), 200, {
      link_token: "lt_example_0123456789",
      link_web_url: "https://link.example/x?token=lt_example_0123456789",
    }) as JsonObject;
    expect(out).toEqual({ link_token: REMOVED.secret, link_web_url: REMOVED.secret });
  });

  it("removes a field the schema does not declare when a marked field elsewhere has its name, and walks into fields it does not know", () => {
    const redactor = new Redactor(contract);
    const out = redactor.response(operation("listLabs"), 200, [
      { id: 1, slug: "x", email: "someone@example.com", extra: { dob: "1990-01-01", note: "kept" } },
    ]) as JsonObject[];
    expect(out[0]).toMatchObject({ id: 1, slug: "x", email: REMOVED.phi, extra: { dob: REMOVED.phi, note: "kept" } });
    // With no operation at all (a path the contract does not have), names decide.
    expect(redactor.response(undefined, 200, { first_name: "Jordan", ok: true })).toEqual({ first_name: REMOVED.phi, ok: true });
  });

  it("takes out of free text the values an application sent in marked fields, as whole tokens, however the text quotes them", () => {
    const redactor = new Redactor(contract);
    const sent = { ...insurance, member_id: "MBR-77812-QX", insured: { ...insured, first_name: "Quillon", last_name: "Vantrebb" } };
    redactor.learnRequest("POST", "/v2/user/u1/insurance", sent);
    const message = `member MBR-77812-QX of Quillon Vantrebb, at ${JSON.stringify(sent)}`;
    const said = redactor.text(message);
    for (const value of ["MBR-77812-QX", "Quillon", "Vantrebb"]) expect(said).not.toContain(value);
    expect(said).toContain(REMOVED.phi);
    // The contract's own words stay: its example values, property names and listed values are nobody's data.
    expect(said).toContain(String(insured.email));
    expect(said).toContain('"member_id"');
    // A value shorter than four characters is not hunted in text: it would cut up every sentence.
    expect(redactor.text("IL and US")).toBe("IL and US");
  });

  it("never cuts a word: a value is taken out only where it stands as a whole token", () => {
    const redactor = new Redactor(contract);
    redactor.learnResponse(operation("createInsurance"), 200, { member_id: "quix", company: { name: "zorb" }, insured: { first_name: "Vell" } });
    const words = "quix_number default_zorb_hub quixotic zorbing Vellum /insured/quix_number must match format";
    expect(redactor.text(words)).toBe(words);
    expect(redactor.text("called quix, then (zorb) and Vell.")).toBe(`called ${REMOVED.phi}, then (${REMOVED.phi}) and ${REMOVED.phi}.`);
    // The contract's own words are never learnt as a server's, though a server sends them in a marked field.
    redactor.learnResponse(operation("createInsurance"), 200, { member_id: "phone_number" });
    expect(redactor.text("phone_number")).toBe("phone_number");
  });

  it("keeps a listed value of a marked enumeration where it stands, and never takes one out of text", () => {
    const redactor = new Redactor(contract);
    const op = operation("getLatestUserInfo");
    const info = responseExample("getLatestUserInfo", 200, "complete") as JsonObject;
    expect((redactor.response(op, 200, { ...info, race: "asian" }) as JsonObject).race).toBe("asian");
    redactor.learnResponse(op, 200, { ...info, race: "asian" });
    const message = "/race must be one of: african_american_or_black, asian, other";
    expect(redactor.text(message)).toBe(message);
    // A value the open enumeration does not list is someone's data.
    expect((redactor.response(op, 200, { ...info, race: "zz-private-race" }) as JsonObject).race).toBe(REMOVED.phi);
  });

  it("writes what verify made up and sent as it is, even when a server echoes it in a marked field", () => {
    const redactor = new Redactor(contract);
    const made = { ...insurance, member_id: "VERIFY-MADE-0042" };
    redactor.observe(
      { method: "POST", url: "http://127.0.0.1:1/v2/user/u1/insurance", body: JSON.stringify(made) },
      { status: 200, text: JSON.stringify({ ...made, company: { name: "Canary Health 9x7", address: insured.address } }) },
    );
    expect(redactor.text("member_id VERIFY-MADE-0042 of Canary Health 9x7")).toBe(`member_id VERIFY-MADE-0042 of ${REMOVED.phi}`);
  });

  it("withholds a server's own words once it sent more marked values than are kept, rather than let one through", () => {
    const redactor = new Redactor(contract);
    const many = Array.from({ length: 100_001 }, (_, i) => ({ first_name: `Name${i}x` }));
    redactor.learnResponse(undefined, 200, many.slice(0, 100_000));
    expect(redactor.serverText("hello Name5x")).toBe(`hello ${REMOVED.phi}`);
    redactor.learnResponse(undefined, 200, many.slice(100_000));
    expect(redactor.serverText("hello Name100000x")).toBe("[17 characters of the server's text, not shown: it sent more than 100000 values in marked fields]");
  });

  it("keeps a property named __proto__ where it stands, and walks no prototype", () => {
    const redactor = new Redactor(contract);
    const body = JSON.parse('{"__proto__": {"dob": "1990-01-01"}, "constructor": "x", "toString": "y"}') as JsonObject;
    const out = redactor.response(operation("listLabs"), 200, [body]) as JsonObject[];
    expect(Object.keys(out[0]!)).toEqual(["__proto__", "constructor", "toString"]);
    expect(JSON.stringify(out)).toBe(`[{"__proto__":{"dob":"${REMOVED.phi}"},"constructor":"x","toString":"y"}]`);
    expect(Object.getPrototypeOf(out[0])).toBe(Object.prototype);
  });

  it("masks a credential to its last four characters, and a short one to nothing, in headers and in text", () => {
    const redactor = new Redactor(contract);
    const key = "sk_test_redactor_0123456789abcd";
    expect(redactor.header("X-SVC-API-KEY", key)).toBe("[credential …abcd]");
    expect(redactor.header("x-management-key", "mk_short")).toBe("[credential]");
    expect(redactor.header("content-type", "application/json")).toBe("application/json");
    expect(redactor.text(`sent ${key} twice: ${key}`)).toBe("sent [credential …abcd] twice: [credential …abcd]");
    expect(maskCredential(key)).not.toContain(key.slice(0, -4));
  });

  it("writes marked values as they came with show (verify's --show-data), and credentials still masked", () => {
    const redactor = new Redactor(contract, { show: true });
    expect(redactor.request(operation("createInsurance"), insurance)).toEqual(insurance);
    expect(redactor.text(String(insurance.member_id))).toBe(insurance.member_id);
    expect(redactor.header("x-svc-api-key", "sk_test_redactor_0123456789abcd")).toBe("[credential …abcd]");
    expect(redactor.opaque({ text: "<html>oops</html>" })).toBe(JSON.stringify("<html>oops</html>"));
  });

  it("names an answer it cannot read by its content type, status line, size and title, not its bytes", () => {
    const redactor = new Redactor(contract);
    redactor.learnResponse(operation("createInsurance"), 200, { member_id: "Ozymandel" });
    const page = "<html><head><title>502 Bad Gateway Ozymandel</title></head><body>Jordan Example</body></html>";
    const said = redactor.opaque({ text: page, status: 502, statusText: "Bad Gateway", contentType: "text/html" });
    expect(said).toMatch(/^text\/html, 502 Bad Gateway, 93 bytes, titled "502 Bad Gateway \[phi removed\]"; not shown/);
    expect(said).not.toContain("Jordan");
  });

  it("learns from an exchange it observes: an error message echoing a marked value the server sent loses it, and the key is masked", () => {
    const redactor = new Redactor(contract);
    redactor.observe(
      {
        method: "POST",
        url: "http://127.0.0.1:1/v2/user/u1/insurance",
        headers: { "x-svc-api-key": "sk_test_observed_0123456789" },
        body: JSON.stringify(insurance),
      },
      { status: 200, text: JSON.stringify({ ...insurance, member_id: "SRV-CANARY-5511" }) },
    );
    expect(redactor.text(`bad member_id SRV-CANARY-5511 with sk_test_observed_0123456789`)).toBe(`bad member_id ${REMOVED.phi} with [credential …6789]`);
  });
});

describe("the redactor on query parameters and compositions it meets in other contracts", () => {
  // A contract of two operations, with what this one does not have yet: a marked query parameter, a mark on a
  // composition's branch, a marked map, and a marked item schema reached through a $ref.
  const document: JsonObject = {
    openapi: "3.1.0",
    paths: {
      "/people": {
        get: {
          operationId: "findPeople",
          parameters: [
            { name: "email", in: "query", "x-svc-data": "phi", schema: { type: "string" } },
            { name: "page", in: "query", schema: { type: "integer" } },
          ],
          responses: {
            "200": { description: "ok", content: { "application/json": { schema: { type: "array", items: { $ref: "#/components/schemas/Person" } } } } },
          },
        },
      },
    },
    components: {
      schemas: {
        Person: {
          allOf: [
            { type: "object", properties: { id: { type: "string", "x-svc-data": "none" } } },
            { type: "object", properties: { name: { type: "string", "x-svc-data": "phi" } } },
          ],
          properties: { tokens: { type: "object", "x-svc-data": "none", additionalProperties: { type: "string", "x-svc-data": "secret" } } },
        },
      },
      securitySchemes: { TeamApiKey: { type: "apiKey", in: "header", name: "X-Key" } },
    },
  };

  it("removes a marked query parameter from a URL and keeps the others", () => {
    const redactor = new Redactor(document);
    expect(redactor.url("GET", "/people?email=jo%40example.com&page=2")).toBe(`/people?${new URLSearchParams({ email: REMOVED.phi, page: "2" })}`);
    redactor.learnRequest("GET", "/people?email=jo%40example.com&page=2", undefined);
    expect(redactor.text("looked up jo@example.com")).toBe(`looked up ${REMOVED.phi}`);
    expect(redactor.url("GET", "http://user:pass-word-long@127.0.0.1:9/people")).not.toContain("pass-word-long");
  });

  it("follows items, $ref, allOf and additionalProperties to the marks", () => {
    const redactor = new Redactor(document);
    const op = redactor.operationById("findPeople");
    expect(redactor.response(op, 200, [{ id: "p1", name: "Jo", tokens: { a: "tok_1", b: "tok_2" } }])).toEqual([
      { id: "p1", name: REMOVED.phi, tokens: { a: REMOVED.secret, b: REMOVED.secret } },
    ]);
    expect(redactor.header("x-key", "abcdefghijklmnopqrst")).toBe("[credential …qrst]");
  });

  it("rewrites a HAR entry: URL, query list, credential header, bodies it can read, and the size of those it cannot", () => {
    const redactor = new Redactor(document);
    const entry = redactHarEntry(
      {
        request: {
          method: "GET",
          url: "http://127.0.0.1:9/people?email=jo%40example.com",
          headers: [{ name: "X-Key", value: "abcdefghijklmnopqrst" }],
          queryString: [{ name: "email", value: "jo@example.com" }],
        },
        response: { status: 200, headers: [], content: { mimeType: "application/json", text: JSON.stringify([{ id: "p1", name: "Jo Example" }]) } },
      },
      redactor,
    );
    const text = JSON.stringify(entry);
    for (const leak of ["jo@example.com", "jo%40example.com", "Jo Example", "abcdefghijklmnopqrst"]) expect(text).not.toContain(leak);
    expect(entry.request.queryString).toEqual([{ name: "email", value: REMOVED.phi }]);
    expect(JSON.parse(entry.response!.content!.text!)).toEqual([{ id: "p1", name: REMOVED.phi }]);
    const html = redactHarEntry(
      { request: { method: "GET", url: "http://127.0.0.1:9/people" }, response: { status: 502, content: { text: "<p>Jo Example</p>" } } },
      redactor,
    );
    expect(html.response!.content!.text).toMatch(/^\[no content type, 17 bytes; not shown/);
  });
});
