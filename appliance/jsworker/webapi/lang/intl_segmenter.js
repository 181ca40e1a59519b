// Intl.Segmenter: grapheme clusters, words and sentences by UAX #29's
// rules, computed in Go (intl_segment.go) without dictionaries: Han
// ideographs are one word each.
const segmenterSlots = new WeakMap();

function segmenterSlot(f, method) {
  const s = segmenterSlots.get(f);
  if (s === undefined) throw new TypeError(`Method Intl.Segmenter.prototype.${method} called on an incompatible receiver`);
  return s;
}

// segmentData is a segment's {segment, index, input[, isWordLike]}.
function segmentData(seg, k) {
  const start = seg.bounds[k];
  const d = { segment: seg.input.slice(start, seg.bounds[k + 1]), index: start, input: seg.input };
  if (seg.wordLike !== undefined) d.isWordLike = seg.wordLike[k];
  return d;
}

class Segments {
  #seg;
  constructor(granularity, input) {
    const r = lang.segment(granularity, input);
    this.#seg = { input, bounds: r.bounds, wordLike: r.wordLike };
  }
  containing(index = undefined) {
    const seg = this.#seg;
    let n = Number(index);
    n = n !== n ? 0 : Math.trunc(n);
    if (n < 0 || n >= seg.input.length) return undefined;
    let lo = 0;
    let hi = seg.bounds.length - 2;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (seg.bounds[mid] <= n) lo = mid;
      else hi = mid - 1;
    }
    return segmentData(seg, lo);
  }
  [Symbol.iterator]() {
    return new SegmentIterator(this.#seg);
  }
}

class SegmentIterator {
  #seg;
  #k = 0;
  constructor(seg) {
    this.#seg = seg;
  }
  next() {
    const seg = this.#seg;
    if (this.#k >= seg.bounds.length - 1) return { value: undefined, done: true };
    return { value: segmentData(seg, this.#k++), done: false };
  }
}
Object.setPrototypeOf(SegmentIterator.prototype, Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())));
Object.defineProperty(SegmentIterator.prototype, Symbol.toStringTag, { value: "Segmenter String Iterator", configurable: true });

class Segmenter {
  constructor(locales = undefined, options = undefined) {
    localeList(locales);
    options = optionsObject(options);
    readLocaleMatcher(options);
    const granularity = getOption(options, "granularity", "string", "grapheme|word|sentence", "grapheme");
    segmenterSlots.set(this, { r: { locale: defaultLocale, granularity } });
  }
  segment(string) {
    return new Segments(segmenterSlot(this, "segment").r.granularity, String(string));
  }
  resolvedOptions() {
    return Object.assign({}, segmenterSlot(this, "resolvedOptions").r);
  }
}
defineIntlClass(Segmenter, "Segmenter", false);
