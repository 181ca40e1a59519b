export default function b() {
  return 1 +;
}
