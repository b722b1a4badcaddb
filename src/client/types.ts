// The client's types, derived from the contract's `paths` and an entry's operation table: what each call takes and what it answers.
import type { paths } from "../../generated/schema.js";

/**
 * One operation of a table: [operationId, credential option (null: none), the statuses it declares beyond the table's
 * `statuses`, and for a paged list [where its items are, default size, largest size]].
 */
export type OperationRow = readonly [
  operationId: string,
  credential: string | null,
  statuses: readonly number[],
  paging?: readonly [items: string, sizeDefault: number, sizeMax: number],
];

/** A client entry's operation table, as scripts/build/generate-tables.ts writes it (generated/operations.ts, management-operations.ts). */
export interface OperationTable {
  /** Each credential's option: the header it is sent as, then any header that stands in for it when set on a call. */
  readonly credentials: { readonly [option: string]: readonly string[] };
  /** The statuses every operation declares. */
  readonly statuses: readonly number[];
  readonly operations: { readonly [route: string]: OperationRow };
}

type Routes<T extends OperationTable> = keyof T["operations"] & string;
type RouteOf<T extends OperationTable, M extends string, P extends string> = `${M} ${P}` & Routes<T>;
type CredentialOf<T extends OperationTable, R extends Routes<T>> = T["operations"][R][1];

/** The credential options of a table's operations (`apiKey`, `linkToken`; `managementKey`). */
export type CredentialOptionOf<T extends OperationTable> = keyof T["credentials"] & string;

/** The credentials a client of a table can hold, each sent only to the operations whose contract names it. */
export type CredentialsOf<T extends OperationTable> = { [K in CredentialOptionOf<T>]?: string | undefined };

/** The HTTP methods of a table's operations, upper-case as in `api.GET(...)`. */
export type MethodOf<T extends OperationTable> = Routes<T> extends `${infer M} ${string}` ? M : never;

/** The path templates of a table's operations a method reaches with the credentials `C` (paths autocomplete as literals). */
export type TablePaths<T extends OperationTable, M extends string, C extends string> = {
  [R in Routes<T>]: R extends `${M} ${infer P}` ? (CredentialOf<T, R> extends null ? P : CredentialOf<T, R> extends C ? P : never) : never;
}[Routes<T>];

type PagingOf<T extends OperationTable, M extends string, P extends string> = T["operations"][RouteOf<T, M, P>] extends readonly [
  unknown,
  unknown,
  unknown,
  readonly [infer K, ...unknown[]],
]
  ? K
  : never;

/** The paged operations of a method (their answers carry `page`, `size`, `pages` and one list of items). */
export type TablePagedPaths<T extends OperationTable, M extends string, C extends string> = {
  [P in TablePaths<T, M, C>]: [PagingOf<T, M, P>] extends [never] ? never : P;
}[TablePaths<T, M, C>];

/** The operation object of the contract's types for a method and path. */
export type OperationOf<M extends string, P extends string> = P extends keyof paths ? (paths[P] extends { [K in Lowercase<M>]: infer O } ? O : never) : never;

type RequiredKeys<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? never : K }[keyof T];
/** Drops the parts the contract types as `never` (an operation without a query has `query?: never`). */
type Present<T> = { [K in keyof T as [Exclude<T[K], undefined>] extends [never] ? never : K]: T[K] };

type ParamsPart<O> = O extends { parameters: infer P } ? Present<Pick<P, "path" & keyof P> & Pick<P, "query" & keyof P>> : {};
type ParamsInit<O> = keyof ParamsPart<O> extends never
  ? { params?: undefined }
  : RequiredKeys<ParamsPart<O>> extends never
    ? { params?: ParamsPart<O> | undefined }
    : { params: ParamsPart<O> };

type JsonBody<B> = B extends { content: { "application/json": infer J } } ? J : never;
type BodyInit<O> = O extends { requestBody: infer B }
  ? { body: JsonBody<B> }
  : O extends { requestBody?: infer B }
    ? [JsonBody<Exclude<B, undefined>>] extends [never]
      ? { body?: undefined }
      : { body?: JsonBody<Exclude<B, undefined>> | undefined }
    : { body?: undefined };

/** Settings of one call that override the client's. */
export interface CallOptions {
  /** Extra headers; a credential header set here wins over the client's credential. */
  headers?: Record<string, string> | undefined;
  /** Cancels the call; its reason is thrown as it is. */
  signal?: AbortSignal | undefined;
  /** The longest one attempt may take, answer body included; `0` waits for ever. */
  timeoutMs?: number | undefined;
  /** The most bytes of an answer's body this call reads, after decompression (`0`: the client's). */
  maxResponseBytes?: number | undefined;
  /** Retries of this call, or `false` for none (see `RetryOptions`). */
  retry?: RetryOptions | boolean | undefined;
}

/** What a call of an operation takes: its parameters and body as the contract types them, and the call's options. */
export type CallInit<O> = ParamsInit<O> & BodyInit<O> & CallOptions;

/** The init argument, optional when nothing in it is required. */
export type InitArgs<O> = RequiredKeys<CallInit<O>> extends never ? [init?: CallInit<O>] : [init: CallInit<O>];

/** Retries of idempotent calls (GET, HEAD, OPTIONS, PUT, DELETE) on 408, 429, 5xx, a failed connection or a timeout. */
export interface RetryOptions {
  /** How many times to try again after the first attempt (default 2). */
  retries?: number | undefined;
  /** The first wait; each later one doubles, up to `maxDelayMs` (default 500). Each wait is drawn between half and all of it. */
  initialDelayMs?: number | undefined;
  /** The longest wait between attempts (default 8000). */
  maxDelayMs?: number | undefined;
  /** A `Retry-After` up to this long is waited out; a longer one ends the retries and the answer is returned (default 60000). */
  maxRetryAfterMs?: number | undefined;
}

/**
 * The statuses of a fetch `Response` (200 to 599) by decade, written out: the compiler reads them as they are, where
 * spelling them from digits (or counting up with tuples) made it build them for every consumer, some 1,700 types.
 */
type Decades = {
  "20": 200 | 201 | 202 | 203 | 204 | 205 | 206 | 207 | 208 | 209;
  "21": 210 | 211 | 212 | 213 | 214 | 215 | 216 | 217 | 218 | 219;
  "22": 220 | 221 | 222 | 223 | 224 | 225 | 226 | 227 | 228 | 229;
  "23": 230 | 231 | 232 | 233 | 234 | 235 | 236 | 237 | 238 | 239;
  "24": 240 | 241 | 242 | 243 | 244 | 245 | 246 | 247 | 248 | 249;
  "25": 250 | 251 | 252 | 253 | 254 | 255 | 256 | 257 | 258 | 259;
  "26": 260 | 261 | 262 | 263 | 264 | 265 | 266 | 267 | 268 | 269;
  "27": 270 | 271 | 272 | 273 | 274 | 275 | 276 | 277 | 278 | 279;
  "28": 280 | 281 | 282 | 283 | 284 | 285 | 286 | 287 | 288 | 289;
  "29": 290 | 291 | 292 | 293 | 294 | 295 | 296 | 297 | 298 | 299;
  "30": 300 | 301 | 302 | 303 | 304 | 305 | 306 | 307 | 308 | 309;
  "31": 310 | 311 | 312 | 313 | 314 | 315 | 316 | 317 | 318 | 319;
  "32": 320 | 321 | 322 | 323 | 324 | 325 | 326 | 327 | 328 | 329;
  "33": 330 | 331 | 332 | 333 | 334 | 335 | 336 | 337 | 338 | 339;
  "34": 340 | 341 | 342 | 343 | 344 | 345 | 346 | 347 | 348 | 349;
  "35": 350 | 351 | 352 | 353 | 354 | 355 | 356 | 357 | 358 | 359;
  "36": 360 | 361 | 362 | 363 | 364 | 365 | 366 | 367 | 368 | 369;
  "37": 370 | 371 | 372 | 373 | 374 | 375 | 376 | 377 | 378 | 379;
  "38": 380 | 381 | 382 | 383 | 384 | 385 | 386 | 387 | 388 | 389;
  "39": 390 | 391 | 392 | 393 | 394 | 395 | 396 | 397 | 398 | 399;
  "40": 400 | 401 | 402 | 403 | 404 | 405 | 406 | 407 | 408 | 409;
  "41": 410 | 411 | 412 | 413 | 414 | 415 | 416 | 417 | 418 | 419;
  "42": 420 | 421 | 422 | 423 | 424 | 425 | 426 | 427 | 428 | 429;
  "43": 430 | 431 | 432 | 433 | 434 | 435 | 436 | 437 | 438 | 439;
  "44": 440 | 441 | 442 | 443 | 444 | 445 | 446 | 447 | 448 | 449;
  "45": 450 | 451 | 452 | 453 | 454 | 455 | 456 | 457 | 458 | 459;
  "46": 460 | 461 | 462 | 463 | 464 | 465 | 466 | 467 | 468 | 469;
  "47": 470 | 471 | 472 | 473 | 474 | 475 | 476 | 477 | 478 | 479;
  "48": 480 | 481 | 482 | 483 | 484 | 485 | 486 | 487 | 488 | 489;
  "49": 490 | 491 | 492 | 493 | 494 | 495 | 496 | 497 | 498 | 499;
  "50": 500 | 501 | 502 | 503 | 504 | 505 | 506 | 507 | 508 | 509;
  "51": 510 | 511 | 512 | 513 | 514 | 515 | 516 | 517 | 518 | 519;
  "52": 520 | 521 | 522 | 523 | 524 | 525 | 526 | 527 | 528 | 529;
  "53": 530 | 531 | 532 | 533 | 534 | 535 | 536 | 537 | 538 | 539;
  "54": 540 | 541 | 542 | 543 | 544 | 545 | 546 | 547 | 548 | 549;
  "55": 550 | 551 | 552 | 553 | 554 | 555 | 556 | 557 | 558 | 559;
  "56": 560 | 561 | 562 | 563 | 564 | 565 | 566 | 567 | 568 | 569;
  "57": 570 | 571 | 572 | 573 | 574 | 575 | 576 | 577 | 578 | 579;
  "58": 580 | 581 | 582 | 583 | 584 | 585 | 586 | 587 | 588 | 589;
  "59": 590 | 591 | 592 | 593 | 594 | 595 | 596 | 597 | 598 | 599;
};
type Decade = keyof Decades;

/**
 * Every status a fetch `Response` can carry (200 to 599), so that a status the contract does not declare for an
 * operation can be typed as "any of the others", and narrowing on a declared status is exact.
 */
export type HttpStatus = Decades[Decade];

type DecadeOf<S> = S extends number ? (`${S}` extends `${infer A}${infer B}${string}` ? `${A}${B}` : never) : never;
/**
 * `Exclude<HttpStatus, D>`, the statuses an operation does not declare, worked out by decade: the decades none of `D`
 * falls in are taken whole, and only the few it touches are filtered. Filtering all 400 statuses for each operation made
 * more than a third of the instantiations of a consumer calling every operation.
 */
type Undeclared<D> = Decades[Exclude<Decade, DecadeOf<D>>] | Exclude<Decades[DecadeOf<D> & Decade], D>;

type Responses<O> = O extends { responses: infer R } ? R : never;
type DeclaredStatus<O> = keyof Responses<O> & number;
type BodyOf<R> = R extends { content: { "application/json": infer J } } ? J : undefined;
type Is2xx<S extends number> = `${S}` extends `2${string}` ? true : false;

/** A success the contract declares: `status` says which one (bulk import's 200 or 202). */
export interface Success<S extends number, D> {
  ok: true;
  status: S;
  data: D;
  error?: undefined;
  response: Response;
}

/** An error the contract declares, with the body it declares for that status. */
export interface Failure<S extends number, E> {
  ok: false;
  status: S;
  error: E;
  data?: undefined;
  response: Response;
}

/** Every answer of an operation, narrowed by `status`: each declared status with its body, and one branch for any other status. */
export type Outcome<O> =
  | { [S in DeclaredStatus<O>]: Is2xx<S> extends true ? Success<S, BodyOf<Responses<O>[S]>> : Failure<S, BodyOf<Responses<O>[S]>> }[DeclaredStatus<O>]
  // A status the contract does not declare (a proxy's 502 or 503): present, but the contract says nothing of the body (JSON, text, or undefined when empty).
  | Failure<Undeclared<DeclaredStatus<O>>, unknown>;

/** What a call resolves to: every outcome, or, on a client made with `throwOnError: true`, only the declared successes. */
export type Answer<O, Throws extends boolean> = Throws extends true ? Extract<Outcome<O>, { ok: true }> : Outcome<O>;

type SuccessData<O> = Extract<Outcome<O>, { status: 200 }> extends { data: infer D } ? D : never;

/** One item of a paged list of a table (a marker, an order). */
export type TablePageItem<T extends OperationTable, M extends string, P extends string> =
  SuccessData<OperationOf<M, P>> extends infer D ? (D extends Record<PagingOf<T, M, P> & string, readonly (infer I)[]> ? I : never) : never;

/** The path templates of every operation a method has in a table, whatever credential each takes. */
type MethodPaths<T extends OperationTable, M extends string> = { [R in Routes<T>]: R extends `${M} ${infer P}` ? P : never }[Routes<T>];

/**
 * A path the client's credentials reach; for one whose credential it lacks, the sentence tsc shows as the type the path
 * is not assignable to, naming the option that fixes it (excluding the path would leave tsc to say `never`).
 */
type ReachedPath<T extends OperationTable, M extends string, C extends string, P extends string> =
  P extends TablePaths<T, M, C>
    ? P
    : `${P} needs the ${CredentialOf<T, RouteOf<T, M, P>> & string} option: give it to the client, or add it with .withCredentials({ ${CredentialOf<T, RouteOf<T, M, P>> & string} })`;

type CallMethod<T extends OperationTable, M extends string, C extends string, Throws extends boolean> = <P extends MethodPaths<T, M>>(
  path: ReachedPath<T, M, C, P>,
  ...init: InitArgs<OperationOf<M, P>>
) => Promise<Answer<OperationOf<M, P>, Throws>>;

/**
 * A client of one table: one method per HTTP method, path templates as typed literals, each operation sent its own
 * credential. A method none of the table's operations uses takes no path.
 */
export interface TableClient<T extends OperationTable, C extends string, Throws extends boolean> {
  GET: CallMethod<T, "GET", C, Throws>;
  POST: CallMethod<T, "POST", C, Throws>;
  PUT: CallMethod<T, "PUT", C, Throws>;
  PATCH: CallMethod<T, "PATCH", C, Throws>;
  DELETE: CallMethod<T, "DELETE", C, Throws>;
  /**
   * Every item of a paged list, page after page, from `params.query.page` (default 1) at `params.query.size` (default
   * and bound from the contract). Stops after the last page (`pages`), or, when `pages` is null, at the first page
   * shorter than `size`. An answer that is not a success throws `ApiError`.
   */
  paginate<M extends MethodOf<T>, P extends TablePagedPaths<T, M, C>>(
    method: M,
    path: P,
    ...init: InitArgs<OperationOf<M, P>>
  ): AsyncIterableIterator<TablePageItem<T, M, P>>;
  /** A client with the same settings and these credentials added (a link token from `POST /v2/link/token`, another team's key). */
  withCredentials<N extends CredentialsOf<T>>(credentials: N): TableClient<T, C | GivenCredentials<T, N>, Throws>;
}

/** The credential options given a value whose type is not just `undefined` (a `string | undefined` from the environment counts). */
export type GivenCredentials<T extends OperationTable, O> = {
  [K in CredentialOptionOf<T>]: K extends keyof O ? ([Exclude<O[K], undefined>] extends [never] ? never : K) : never;
}[CredentialOptionOf<T>];

/** Whether a client made with these options throws instead of answering failures. */
export type ThrowsOf<O> = O extends { throwOnError: true } ? true : false;

/** The options of every client factory but its credentials. */
export interface ClientSettings {
  /** The service's base address, such as `https://api.svc.example` or the mock's `http://127.0.0.1:4010`. Required. */
  baseUrl: string;
  /** The fetch to send requests with (default: the global fetch). */
  fetch?: ((request: Request) => Promise<Response>) | undefined;
  /**
   * The longest one attempt may take, answer body included, in ms (default and `0`: no limit of the client's; Node's
   * fetch gives up on an answer whose headers take 300 s, and never on a body that trickles). Set it.
   */
  timeoutMs?: number | undefined;
  /**
   * The most bytes of an answer's body the client reads, counted after decompression (default and `0`: 16 MiB); past
   * it the call throws `ApiResponseTooLargeError` and the connection is dropped.
   */
  maxResponseBytes?: number | undefined;
  /** Retries of idempotent calls: off by default; `true` for the defaults of `RetryOptions`. */
  retry?: RetryOptions | boolean | undefined;
  /** Throw `ApiError` for every answer that is not a declared success, and type calls as returning only successes. */
  throwOnError?: boolean | undefined;
  /** Headers sent with every call. */
  headers?: Record<string, string> | undefined;
}
