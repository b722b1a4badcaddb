// The shapes a request and its answer take between a transport and the mock (headers, the request, the reply, a refusal,
// a served file): a leaf every part of the mock imports, so the steps, the transports and the state never import one
// another for a type.
import type { ErrorDetail } from "../contract/validator.ts";

/** A request's headers by lower-case name, as Node's server gives them (and the Fetch adapter makes them). */
export type HeaderBag = Record<string, string | string[] | undefined>;

/** A request as a transport hands it to the pipeline. */
export interface MockRequest {
  method: string;
  /** The request target: origin-form (`/v3/...?q`) or absolute-form. */
  target: string;
  headers: HeaderBag;
  /** The body as text, or undefined when it is over the size limit; read once, when a step needs it. */
  body: () => string | undefined | Promise<string | undefined>;
}

/** What the pipeline answers: the status, headers as name-value pairs, the body; or a connection dropped on purpose. */
export interface Reply {
  status: number;
  headers: string[];
  body?: Uint8Array | undefined;
  /** The transport drops the connection without an answer (a condition the caller asked for). */
  drop?: boolean;
}

/** A refusal in the contract's error body. */
export interface Refusal {
  status: number;
  code: string;
  message: string;
  details?: ErrorDetail[];
  headers?: Record<string, string>;
  /** Fields the body carries beside the code and message (the user a conflict names): only the stateful mock's answers have them. */
  fields?: Record<string, unknown>;
}

/** A file served beside the API (the reference, the bundle), as the transport that has files serves it. */
export interface ServedFile {
  /** A line saying why the file is not there yet (the reference still building), or undefined when it is. */
  pending?: (() => string | undefined) | undefined;
  /** The file's answer to a GET or HEAD; undefined when it is missing. */
  serve: (method: string, headers: HeaderBag) => Promise<Reply | undefined>;
}
