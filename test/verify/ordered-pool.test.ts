// The pool that runs a pass's units concurrently: checks recorded in the units' order whatever order they finish in,
// a buffer that holds senders back once about 4 × n checks wait, dependencies waited for, and a unit that throws
// stopping the pass with the checks before it kept. Its senders are stand-ins that answer after a chosen while.
import { describe, expect, it } from "vitest";
import type { MadeCheck } from "../../src/verify/check.ts";
import type { Unit, VerifyContext } from "../../src/verify/context.ts";
import { BUFFER_PER_SENDER, OrderedPool } from "../../src/verify/ordered-pool.ts";

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A context whose sender answers after `ms` (each request first waiting at the pool's gate), noting what is recorded. */
function fakeContext() {
  const recorded: string[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const sender = {
    gated: (gate: () => Promise<void>) => ({
      send: async ({ url }: { url: string }) => {
        await gate();
        inFlight++;
        mostInFlight = Math.max(mostInFlight, inFlight);
        await tick(Number(url));
        inFlight--;
        return { kind: "failure", error: "", ms: 0 };
      },
    }),
  };
  const context = { sender, record: (check: MadeCheck) => recorded.push(check.name) } as unknown as VerifyContext;
  return { context, recorded, mostInFlight: () => mostInFlight };
}

const check = (name: string): MadeCheck => ({ suite: "test", name, status: "passed", ms: 0 });
/** A request that takes `ms`, through the unit's own sender. */
const request = (unit: VerifyContext, ms: number) => unit.sender.send({ method: "GET", url: String(ms), headers: {} });

describe("verify's ordered pool", () => {
  it("records each unit's checks in the units' order, however they finish, at most n at once", async () => {
    const { context, recorded, mostInFlight } = fakeContext();
    // Early units are slow, later ones quick: most finish before those ahead of them.
    const units: Unit[] = Array.from({ length: 24 }, (_, i) => ({
      run: async (unit) => {
        await request(unit, 24 - i);
        unit.record(check(`${i}.a`));
        await request(unit, (i * 7) % 5);
        unit.record(check(`${i}.b`));
      },
    }));
    await new OrderedPool(4).run(context, units);
    expect(recorded).toEqual(units.flatMap((_, i) => [`${i}.a`, `${i}.b`]));
    expect(mostInFlight()).toBe(4);
  });

  it("holds a sender back while about 4 × n checks wait for the first unit still running", async () => {
    const { context, recorded } = fakeContext();
    const size = 2;
    let made = 0;
    let mostWaiting = 0;
    const counted: VerifyContext = { ...context, record: (made: MadeCheck) => (context.record(made), undefined) };
    const units: Unit[] = [
      // The first unit takes long: every check of the others waits for it.
      { run: async (unit) => (await request(unit, 60), unit.record(check("first"))) },
      ...Array.from({ length: 40 }, (_, i) => ({
        run: async (unit: VerifyContext) => {
          await request(unit, 1);
          made++;
          mostWaiting = Math.max(mostWaiting, made - recorded.length);
          unit.record(check(String(i)));
        },
      })),
    ];
    await new OrderedPool(size).run(counted, units);
    expect(recorded).toHaveLength(41);
    expect(recorded[0]).toBe("first");
    // Each sender passes the gate while fewer than 4 × n wait, and records one check a request.
    expect(mostWaiting).toBeLessThanOrEqual(BUFFER_PER_SENDER * size + size);
    expect(mostWaiting).toBeGreaterThanOrEqual(BUFFER_PER_SENDER * size - 1);
  });

  it("starts a unit after the units it waits for have finished", async () => {
    const { context } = fakeContext();
    const finished: number[] = [];
    const started: Record<number, number[]> = {};
    const unit = (i: number, ms: number, after?: number[]): Unit => ({
      run: async (each) => {
        started[i] = [...finished];
        await request(each, ms);
        finished.push(i);
      },
      ...(after === undefined ? {} : { after }),
    });
    await new OrderedPool(4).run(context, [unit(0, 30), unit(1, 1), unit(2, 1, [0]), unit(3, 1, [1, 2])]);
    expect(started[2]).toContain(0);
    expect(started[3]).toEqual(expect.arrayContaining([0, 1, 2]));
  });

  it("stops at a unit that throws, keeping the checks of the units before it, and throws its error", async () => {
    const { context, recorded } = fakeContext();
    const units: Unit[] = Array.from({ length: 8 }, (_, i) => ({
      run: async (unit) => {
        await request(unit, i === 2 ? 20 : 1);
        if (i === 2) throw new Error("verify's own fault");
        unit.record(check(String(i)));
      },
    }));
    await expect(new OrderedPool(4).run(context, units)).rejects.toThrow("verify's own fault");
    expect(recorded).toEqual(["0", "1"]);
  });
});
