export const Frag = "frag";
export function h(type, props, ...children) {
  return type + "(" + children.join("") + ")";
}
