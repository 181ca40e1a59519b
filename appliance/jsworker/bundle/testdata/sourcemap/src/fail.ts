// Lines before the throw, which TypeScript types alone would shift.
export type Reason = "boom";

export function fail(name: string): never {
  const reason: Reason = "boom";
  throw new Error(`${reason} ${name}`);
}
