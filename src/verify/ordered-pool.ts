// Runs a pass's units of work at most n at a time and records their checks in plan order, so the console, the failure
// ids and the reports are those of a run of one (--concurrency 1), whatever order the answers come in: a unit's checks
// go out at once while every unit before it is done, and otherwise wait in a buffer; once 4 × n wait, only the unit
// they wait for may send (a request let through just before adds only its own few checks).
// Written here rather than with p-limit or p-queue: they bound how many run, but neither starts work in plan order,
// waits on a unit's dependencies, nor holds a sender back while the checks ahead of it are still out.
import type { MadeCheck } from "./check.ts";
import type { Unit, VerifyContext } from "./context.ts";

/** How many completed checks per sender may wait for the checks before them. */
export const BUFFER_PER_SENDER = 4;

export class OrderedPool {
  readonly #size: number;
  /** The plan position of the next unit, across every pass of the run: what orders what the fixtures learn. */
  #position = 0;

  constructor(size: number) {
    this.#size = Math.max(1, Math.floor(size));
  }

  get size(): number {
    return this.#size;
  }

  /**
   * Runs the units, each after the units it names in `after` (earlier ones only), starting them in their order with at
   * most `size` running; each unit gets a context whose `record` keeps plan order and whose sender waits, before each
   * request, while the buffer is full and the unit is not the first one still running (which never waits: it is what
   * empties the buffer). A unit that throws stops the pass: what was recorded before it is kept, and the error goes on.
   */
  async run(context: VerifyContext, units: Unit[]): Promise<void> {
    const base = this.#position;
    this.#position += units.length;
    const limit = BUFFER_PER_SENDER * this.#size;
    const buffers: MadeCheck[][] = units.map(() => []);
    const done = units.map(() => false);
    const settled: Promise<void>[] = [];
    let head = 0;
    let buffered = 0;
    // The first unit (in plan order) that threw, and what: set by the workers, read after them.
    const stopped: { failure?: { error: unknown; at: number } } = {};
    // Read through a call: TypeScript keeps a property narrowed across the awaits in between, where workers change it.
    const failed = () => stopped.failure;
    let waiting: (() => void)[] = [];
    const wake = () => {
      const woken = waiting;
      waiting = [];
      for (const resolve of woken) resolve();
    };
    /** Records the buffered checks of the units at the front, in order, and moves past each one done (up to `end`). */
    const release = (end = units.length) => {
      while (head < end) {
        for (const check of buffers[head]!) context.record(check);
        buffered -= buffers[head]!.length;
        buffers[head] = [];
        if (!done[head]) break;
        head++;
      }
      wake();
    };
    const room = async (index: number) => {
      while (index !== head && buffered >= limit && failed() === undefined) await new Promise<void>((resolve) => waiting.push(resolve));
    };
    const contextOf = (index: number): VerifyContext => ({
      ...context,
      position: base + index,
      sender: context.sender.gated(() => room(index)),
      record: (check) => {
        if (index === head) context.record(check);
        else {
          buffers[index]!.push(check);
          buffered++;
        }
      },
    });

    let next = 0;
    const worker = async () => {
      while (next < units.length && failed() === undefined) {
        const index = next++;
        const unit = units[index]!;
        let finish!: () => void;
        settled[index] = new Promise<void>((resolve) => (finish = resolve));
        try {
          await Promise.all((unit.after ?? []).map((before) => settled[before]));
          await room(index);
          if (failed() === undefined) await unit.run(contextOf(index));
        } catch (error) {
          if ((failed()?.at ?? Number.POSITIVE_INFINITY) > index) stopped.failure = { error, at: index };
          wake();
        } finally {
          done[index] = true;
          finish();
          // Never past a unit that threw: a run of one would have stopped there.
          if (index === head) release(failed()?.at ?? units.length);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.#size, units.length) }, worker));
    const failure = failed();
    if (failure !== undefined) {
      // What a run of one would have recorded before the fault: the checks of the units up to the one that threw.
      release(failure.at + 1);
      throw failure.error;
    }
  }
}

/** Runs units one after another with the context as it is: where no pool is (--replay's cleanup). */
export async function inTurn(context: VerifyContext, units: Unit[]): Promise<void> {
  for (const unit of units) await unit.run(context);
}
