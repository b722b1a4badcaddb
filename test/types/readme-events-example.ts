// The README's events example, kept identical by test/readme.test.ts and type-checked by test/typecheck.test.ts.
declare const rawBody: string;
declare const request: { headers: Headers };
declare function store(userId: string, samples: unknown[]): void;
declare function connected(userId: string, provider: string): void;
import { parseWebhook } from "@svc/health-api-contract/webhooks";

// In your HTTP handler, with the body as the raw bytes or text the request carried.
const event = await parseWebhook(rawBody, request.headers, [process.env.SVC_WEBHOOK_SECRET!]);
switch (event.kind) {
  case "daily.data.heartrate.created":
    store(event.payload.user_id, event.payload.data.samples); // TimeseriesData
    break;
  case "provider.connection.created":
    connected(event.payload.user_id, event.payload.data.provider);
    break;
  case "unknown":
    // A kind the service added after this package was built: envelope typed, data not.
    break;
}
