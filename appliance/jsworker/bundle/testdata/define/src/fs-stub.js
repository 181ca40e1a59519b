export function readFileSync() {
  return "fs-stub";
}
