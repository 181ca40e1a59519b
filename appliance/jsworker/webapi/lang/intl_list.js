// Intl.ListFormat with English's patterns: "a, b, and c", "a or b",
// "a, b, c".
const listSlots = new WeakMap();

function listSlot(f, method) {
  const s = listSlots.get(f);
  if (s === undefined) throw new TypeError(`Method Intl.ListFormat.prototype.${method} called on an incompatible receiver`);
  return s;
}

// listPatterns: [separator of two, separator between, separator before the
// last], by type and style.
const listPatterns = {
  conjunction: { long: [" and ", ", ", ", and "], short: [" & ", ", ", ", & "], narrow: [", ", ", ", ", "] },
  disjunction: { long: [" or ", ", ", ", or "], short: [" or ", ", ", ", or "], narrow: [" or ", ", ", ", or "] },
  unit: { long: [", ", ", ", ", "], short: [", ", ", ", ", "], narrow: [" ", " ", " "] },
};

function stringList(list) {
  if (list === undefined) return [];
  const out = [];
  for (const v of list) {
    if (typeof v !== "string") throw new TypeError("Intl.ListFormat formats only strings");
    out.push(v);
  }
  return out;
}

function listParts(s, list) {
  const items = stringList(list);
  const [two, middle, last] = listPatterns[s.r.type][s.r.style];
  const out = [];
  items.forEach((item, k) => {
    if (k > 0) {
      const sep = items.length === 2 ? two : k === items.length - 1 ? last : middle;
      out.push({ type: "literal", value: sep });
    }
    out.push({ type: "element", value: item });
  });
  return out;
}

class ListFormat {
  constructor(locales = undefined, options = undefined) {
    localeList(locales);
    options = optionsObject(options);
    readLocaleMatcher(options);
    const type = getOption(options, "type", "string", "conjunction|disjunction|unit", "conjunction");
    const style = getOption(options, "style", "string", "long|short|narrow", "long");
    listSlots.set(this, { r: { locale: defaultLocale, type, style } });
  }
  format(list) {
    return listParts(listSlot(this, "format"), list).map((p) => p.value).join("");
  }
  formatToParts(list) {
    return listParts(listSlot(this, "formatToParts"), list);
  }
  resolvedOptions() {
    return Object.assign({}, listSlot(this, "resolvedOptions").r);
  }
}
defineIntlClass(ListFormat, "ListFormat", false);
