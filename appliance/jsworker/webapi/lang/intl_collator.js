// Intl.Collator over Go's CLDR root collation (golang.org/x/text/collate),
// which goja's localeCompare uses too.
const collatorSlots = new WeakMap();

function collatorSlot(c, method) {
  const s = collatorSlots.get(c);
  if (s === undefined) throw new TypeError(`Method Intl.Collator.prototype.${method} called on an incompatible receiver`);
  return s;
}

class CollatorImpl {
  constructor(locales, options) {
    const requested = localeList(locales);
    options = coerceOptions(options);
    const usage = getOption(options, "usage", "string", "sort|search", "sort");
    readLocaleMatcher(options);
    typeOption(options, "collation");
    let numeric = getOption(options, "numeric", "boolean", undefined, undefined);
    let caseFirst = getOption(options, "caseFirst", "string", "upper|lower|false", undefined);
    if (numeric === undefined) numeric = unicodeKeyword(requested, "kn") === "true";
    if (caseFirst === undefined) caseFirst = unicodeKeyword(requested, "kf") || "false";
    const sensitivity = getOption(options, "sensitivity", "string", "base|accent|case|variant", "variant");
    const ignorePunctuation = getOption(options, "ignorePunctuation", "boolean", undefined, false);
    const r = { locale: defaultLocale, usage, sensitivity, ignorePunctuation, collation: "default", numeric, caseFirst };
    collatorSlots.set(this, { r, handle: lang.collator(sensitivity, numeric, ignorePunctuation, caseFirst), compare: undefined });
  }
  get compare() {
    const s = collatorSlot(this, "compare");
    return boundGetter(s, "compare", () => (x, y) => lang.compare(s.handle, String(x), String(y)));
  }
  resolvedOptions() {
    return Object.assign({}, collatorSlot(this, "resolvedOptions").r);
  }
}

const Collator = defineIntlClass(CollatorImpl, "Collator", true);
