// The loyalty app's module: pure functions the sandbox runs for the app's `runtime: "module"`
// service actions. Each export gets the action's input (checked against the manifest's `input`
// fields) and returns its output (checked against `output`). There is no I/O, no clock and no
// randomness here: what a function needs, its input carries.

/** A score of 0-100 from a customer's order count and loyalty points, and the tier it earns. */
export function score(input) {
  const orders = Math.min(input.order_count, 100000);
  const points = input.points ?? 0;
  const value = Math.min(100, orders * 10 + Math.floor(points / 100));
  const tier = value >= 70 ? 'gold' : value >= 40 ? 'silver' : 'bronze';
  return { score: value, tier };
}

/** The heading of the weekly digest event: how many days of follow-ups it covers. */
export function digest(input) {
  const days = input.days;
  return {
    window_days: days,
    title: days === 1 ? 'Follow-ups due today' : `Follow-ups due in the next ${days} days`,
  };
}
