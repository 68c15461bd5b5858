/**
 * The pending faults of a loopback fixture (PayPal, SMTP, app services), consumed first-added
 * first: `add` queues a fault for its `times` matching calls (1 by default) after `check` accepts
 * it, `take` answers the first fault that `matches` the call and counts it down.
 */
export function createFaultQueue<F extends { readonly times?: number | undefined }, Call extends unknown[]>(
  matches: (fault: F, ...call: Call) => boolean,
  check: (fault: F) => void = () => {},
) {
  const pending: { fault: F; remaining: number }[] = [];
  return {
    add(fault: F): void {
      const times = fault.times ?? 1;
      if (!Number.isInteger(times) || times < 1)
        throw new Error('failNext: times must be a positive integer');
      check(fault);
      pending.push({ fault, remaining: times });
    },
    /** The fault for this call, if any; using it counts down its `times`. */
    take(...call: Call): F | undefined {
      const index = pending.findIndex((entry) => matches(entry.fault, ...call));
      if (index < 0) return undefined;
      const entry = pending[index]!;
      entry.remaining -= 1;
      if (entry.remaining === 0) pending.splice(index, 1);
      return entry.fault;
    },
    clear(): void {
      pending.length = 0;
    },
    get size(): number {
      return pending.length;
    },
  };
}
