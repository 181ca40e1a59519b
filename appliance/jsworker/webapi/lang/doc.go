// Package lang fills in the ECMAScript features goja lacks, so that npm
// code written for V8 runs: RegExp named groups, \p{...}, the d and v
// flags and RegExp.escape; the builtins of ES2021–ES2025 goja has not got;
// the iterator helpers; and Intl. Its Extension runs right after the core,
// before every other extension, and defines nothing goja already has.
//
// # RegExp
//
// The global RegExp is a constructor over goja's, sharing its prototype
// (instanceof, RegExp.prototype methods and constructor all hold). A
// pattern goja runs correctly is handed to goja as it is; one with named
// groups, \p{...} or \P{...} (u or v flag), or the d or v flag is
// translated in Go first (pattern.go): named groups become plain groups,
// \k<name> numbered backreferences, property escapes explicit classes from
// Go's unicode tables, v-flag classes (nested classes, --, && and \q{...})
// u-flag ones, and the d and v flags are dropped or become u. Such a
// regexp gets own exec, [Symbol.replace], [Symbol.split] and
// [Symbol.matchAll] methods that add .groups (a null-prototype object),
// $<name> substitutions, the groups argument of replacer functions, and
// with the d flag .indices (matched by regexp2, the engine goja falls back
// to, in Go); its source, flags and toString show the pattern as written.
// esbuild rewrites regexp literals that use these features into RegExp
// calls, so bundled code always takes this path. Compiled patterns are
// cached: goja compiles each pattern once per isolate, and new RegExp
// clones it.
//
// # Builtins
//
// WeakRef, FinalizationRegistry, Promise.withResolvers and Promise.try,
// Object.groupBy and Map.groupBy, the Set methods (union, intersection,
// difference, symmetricDifference, isSubsetOf, isSupersetOf,
// isDisjointFrom over set-like arguments), Symbol.asyncIterator,
// Array.fromAsync, String.prototype.isWellFormed and toWellFormed,
// ArrayBuffer.prototype.transfer, transferToFixedLength and detached,
// Math.sumPrecise, and V8's Error.captureStackTrace, Error.stackTraceLimit
// and Error.prepareStackTrace call sites. Iterator, Iterator.from,
// Iterator.concat and the helpers (map, filter, take, drop, flatMap,
// reduce, toArray, forEach, some, every, find) live on
// %IteratorPrototype%, so every goja iterator and generator has them.
//
// # Intl
//
// Intl.NumberFormat, DateTimeFormat, Collator, PluralRules,
// RelativeTimeFormat, ListFormat, Segmenter and Locale,
// Intl.getCanonicalLocales and Intl.supportedValuesOf; and
// Number.prototype.toLocaleString, BigInt.prototype.toLocaleString,
// Date.prototype.toLocaleString, toLocaleDateString and
// toLocaleTimeString, and String.prototype.localeCompare (with locales or
// options) through them. Options are resolved in JavaScript as ECMA-402
// says, with its TypeErrors and RangeErrors; the formatting is Go's:
// numbers are rounded exactly from their shortest decimal form, as ICU
// does; time zones come from Go's time package with the tz database
// embedded (time/tzdata), so hosts without /usr/share/zoneinfo work;
// collation is golang.org/x/text/collate's CLDR root order; segmentation
// follows UAX #29.
//
// # Differences
//
// RegExp literals goja accepts keep goja's engine: a literal with named
// groups, which only code that did not go through the bundler can hold
// (eval'd code, the other extensions' preludes), numbers its groups with
// the named ones last and has no .groups, and a literal with \p{...} and
// the u flag matches "p{...}". Handling them would mean patching
// RegExp.prototype.exec, which turns off goja's fast paths for every
// regexp (replace and split run about ten times slower, see
// BenchmarkRegExp);
// new RegExp(literal) gives the translated form. Translated regexps show
// their methods among their own (non-enumerable) properties;
// RegExp.prototype.exec.call on one gives no .groups, and the prototype's
// source getter called directly on one shows the translation.
// RegExp[Symbol.species] is goja's own constructor, so that goja's split
// keeps its fast path. \p{...} uses Go's Unicode 15 tables:
// Script_Extensions is answered with Script, Changes_When_* use simple
// case mappings, Case_Ignorable and Default_Ignorable_Code_Point are
// derived, the emoji properties come from a Unicode 15 table typed into
// emoji.go, and Bidi_Mirrored, Changes_When_NFKC_Casefolded and the
// properties of strings (RGI_Emoji and others) are SyntaxErrors. Lone
// surrogates never match a translated class, and a lone surrogate in a
// translated pattern's source reads as U+FFFD. WeakRef holds its target
// strongly and FinalizationRegistry never calls its callback (goja has no
// weak references). ArrayBuffers are never resizable, so transfer and
// transferToFixedLength are the same; they hand the memory over and
// detach. Symbol.asyncIterator is the registered Symbol.for("Symbol.
// asyncIterator"), which esbuild's helpers look up. Error.captureStackTrace
// writes V8's "    at fn (file:line:col)" lines (goja's own stacks keep
// goja's format), honours Error.prepareStackTrace at once rather than on
// first access, and, goja's frames of class constructors being unnamed,
// hides the frame right above it when the constructor to hide is not
// found by name; Error.stackTraceLimit and Error.prepareStackTrace affect
// only Error.captureStackTrace. Intl formats as en-US whatever the locale:
// resolvedOptions().locale is "en-US", supportedLocalesOf keeps only
// English tags, PluralRules has English's rules, the calendar is gregory
// and the numbering system latn. The default time zone is UTC, as on
// Cloudflare. Times use a plain space before AM and PM and around the
// dash of ranges (ICU 72 and later use U+202F and U+2009), and
// DateTimeFormat picks patterns by rules close to CLDR's en-US skeletons
// rather than by skeleton matching, so unusual combinations of components
// can differ; formatRange does not merge the fields both ends share. Time
// zone names are North American abbreviations and generic names, long
// names for a table of common zones, and GMT±h:mm otherwise.
// NumberFormat knows symbols and names for about fifty currencies (others
// show their code with two digits), ECMA-402's sanctioned units, and
// compact K, M, B and T. Collator uses the CLDR root order for every
// locale; usage "search" sorts like "sort", caseFirst "upper" reverses
// pairs that differ only in case, sensitivity "case" compares the strings
// without their accents, and collations other than the default are
// ignored. RelativeTimeFormat's narrow style writes "in 3h".
// PluralRules.selectRange answers the end's category. Segmenter has no
// dictionaries: Han ideographs are a word each, runs of Hiragana, Thai or
// Khmer one word; sentences end after ., ! or ? unless a lower-case letter
// or digit follows a full stop. Intl.Locale's maximize and minimize know
// only en and und. Intl.DisplayNames and Intl.DurationFormat are absent.
package lang
