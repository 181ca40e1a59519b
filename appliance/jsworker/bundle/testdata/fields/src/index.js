// A class field named set, get or async, as Hono's Context has: goja's
// parser refuses it unless the fields are lowered.
export class Context {
  #vars = new Map();
  set = (key, value) => { this.#vars.set(key, value); };
  get = (key) => this.#vars.get(key);
  static async = true;
}
export default { context: () => new Context() };
