// The pieces ContractValidator is made of, called alone: the media-type grammar, the JSON limits, the credential
// check, the wording of errors, the bounded problems of a large answer; and the contract model's operations, resolved once.
import { describe, expect, it } from "vitest";
import type { ErrorObject } from "ajv/dist/2020.js";
import { CredentialCheck } from "../src/contract/credential-check.ts";
import { Credentials } from "../src/contract/credentials.ts";
import { bodyField, detailsLine, toDetails } from "../src/contract/error-details.ts";
import { hasNonFinite, nestsDeeperThan } from "../src/contract/json-limits.ts";
import { isJsonContentType } from "../src/contract/media-type.ts";
import { ALL_PROBLEMS_VALUES, NAMED_PROBLEMS, ResponseValidator } from "../src/contract/response-validation.ts";
import { deref, type ContractOperation } from "../src/contract/operations.ts";
import type { JsonObject } from "../src/contract/json.ts";
import { contract, operation } from "./support/contract.ts";

describe("isJsonContentType", () => {
  it("takes one JSON media type, in any case, with well-formed parameters and UTF-8", () => {
    for (const header of [
      "application/json",
      "APPLICATION/JSON",
      "application/problem+json",
      "application/json; charset=utf-8",
      'application/json;charset="UTF-8"',
    ]) {
      expect(isJsonContentType(header), header).toBe(true);
    }
  });

  it("refuses other types, other charsets, lists and broken parameters", () => {
    for (const header of [
      undefined,
      "text/plain",
      "application/xml",
      "application/json; charset=latin1",
      "application/json, text/plain",
      "application/json; charset=",
      "application/jsonx",
    ]) {
      expect(isJsonContentType(header), String(header)).toBe(false);
    }
  });
});

describe("JSON limits", () => {
  it("counts nesting by brackets outside strings", () => {
    expect(nestsDeeperThan("[[[1]]]", 3)).toBe(false);
    expect(nestsDeeperThan("[[[[1]]]]", 3)).toBe(true);
    expect(nestsDeeperThan('["[[[[\\"[[["]', 1)).toBe(false);
  });

  it("finds a number that is not finite anywhere inside a value", () => {
    expect(hasNonFinite({ a: [1, { b: 2 }] })).toBe(false);
    expect(hasNonFinite({ a: [1, { b: Infinity }] })).toBe(true);
    expect(hasNonFinite(Number.NaN)).toBe(true);
  });
});

describe("CredentialCheck", () => {
  const check = new CredentialCheck(new Credentials(contract));

  it("names the header an operation needs", () => {
    expect(check.header(operation("listLabs"))).toBe("x-svc-api-key");
  });

  it("passes a request with it, and says which header is missing", () => {
    expect(check.refusal(operation("listLabs"), { "x-svc-api-key": "k" })).toBeUndefined();
    expect(check.refusal(operation("listLabs"), {})).toBe("The x-svc-api-key header is missing.");
    expect(check.refusal(operation("listLabs"), { "x-svc-api-key": "" })).toBe("The x-svc-api-key header is missing.");
  });

  it("says when the request carries another kind of credential instead", () => {
    expect(check.refusal(operation("listLabs"), { "x-svc-link-token": "t" })).toMatch(
      /^This operation takes x-svc-api-key; x-svc-link-token is another kind of credential/,
    );
  });
});

describe("error wording", () => {
  const error = (keyword: string, instancePath: string, params: object, message?: string) =>
    ({ keyword, instancePath, params, message, schemaPath: "" }) as ErrorObject;

  it("writes details as one line, the root as /", () => {
    expect(
      detailsLine([
        { field: "/user_id", message: "is required" },
        { field: "", message: "is invalid" },
      ]),
    ).toBe("/user_id is required; / is invalid");
  });

  it("keeps the most telling error per field: an enum's values over anyOf and null-branch noise", () => {
    const details = toDetails(
      "body",
      [
        error("anyOf", "/kind", {}, "must match a schema in anyOf"),
        error("type", "/kind", { type: "null" }, "must be null"),
        error("enum", "/kind", { allowedValues: ["a", "b"] }),
      ],
      bodyField,
    );
    expect(details).toEqual([{ location: "body", field: "/kind", message: "must be one of: a, b" }]);
  });

  it("places a missing property at its own field", () => {
    expect(toDetails("body", [error("required", "/user", { missingProperty: "id" })], bodyField)).toEqual([
      { location: "body", field: "/user/id", message: "is required" },
    ]);
  });
});

describe("a response's problems", () => {
  const validator = new ResponseValidator(contract);
  const listLabs = operation("listLabs");

  it("are named up to a bound and counted past it, however many items are wrong", () => {
    const details = validator.validate(
      listLabs,
      200,
      Array.from({ length: 100 }, () => ({})),
    );
    expect(details).toHaveLength(NAMED_PROBLEMS + 1);
    expect(details.at(-1)).toEqual({ location: "body", field: "", message: expect.stringMatching(/^has \d+ more problems, not named$/) });
    expect(validator.validate(listLabs, 200, [])).toEqual([]);
  });

  it("are looked for only to the first in a body too large to collect every one", () => {
    const details = validator.validate(
      listLabs,
      200,
      Array.from({ length: ALL_PROBLEMS_VALUES * 5 }, () => ({})),
    );
    expect(details).toHaveLength(2);
    expect(details[0]!.field).toMatch(/^\/0\//);
    expect(details[1]!.message).toBe(`holds more than ${ALL_PROBLEMS_VALUES} values: its first problem is named, the rest not looked for`);
  });
});

describe("resolved operations", () => {
  const raw = (op: ContractOperation) => op.operation;

  it("hand out the request body and every response with their references followed", () => {
    const op = operation("createUser");
    expect(op.requestBody).toBe(deref(contract, raw(op).requestBody));
    expect(op.requestBody?.$ref).toBeUndefined();
    const responses = raw(op).responses as JsonObject;
    expect(Object.keys(op.responses)).toEqual(Object.keys(responses));
    for (const [key, response] of Object.entries(op.responses)) expect(response).toBe(deref(contract, responses[key]));
  });

  it("leave the request body undefined where the operation takes none, and list the path's aliases", () => {
    expect(operation("listLabs").requestBody).toBeUndefined();
    expect(operation("listLabs").aliases).toEqual([]);
    expect(operation("listProviders").aliases).toEqual(["/v2/providers/"]);
  });
});
