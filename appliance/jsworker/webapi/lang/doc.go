// Package lang fills in the ECMAScript features goja lacks, so that npm
// code written for V8 runs: RegExp named groups, \p{...}, the d and v
// flags and RegExp.escape; the newer builtins; the iterator helpers; and
// Intl. Its Extension runs right after the core, before every other
// extension.
package lang
