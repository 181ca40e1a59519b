// The queuing strategies.

function strategyInit(init, name) {
  const d = dict(init, `${name}'s init`);
  const hwm = member(d, "highWaterMark");
  if (hwm === undefined) throw new TypeError(`${name} needs an init object with a highWaterMark`);
  return Number(hwm);
}

const byteLengthSize = { size(chunk) { return chunk.byteLength; } }.size;
const countSize = { size() { return 1; } }.size;

class ByteLengthQueuingStrategy {
  #hwm;
  constructor(init) { this.#hwm = strategyInit(init, "ByteLengthQueuingStrategy"); }
  get highWaterMark() { return this.#hwm; }
  get size() {
    this.#hwm; // eslint-disable-line no-unused-expressions
    return byteLengthSize;
  }
}
webidl(ByteLengthQueuingStrategy, "ByteLengthQueuingStrategy");

class CountQueuingStrategy {
  #hwm;
  constructor(init) { this.#hwm = strategyInit(init, "CountQueuingStrategy"); }
  get highWaterMark() { return this.#hwm; }
  get size() {
    this.#hwm; // eslint-disable-line no-unused-expressions
    return countSize;
  }
}
webidl(CountQueuingStrategy, "CountQueuingStrategy");
