// Package htmlrewriter is Cloudflare's HTMLRewriter for dwk's JavaScript
// runtime: a streaming HTML rewriter whose handlers, registered per CSS
// selector with on() or for the whole document with onDocument(), see
// and change elements, end tags, text, comments and the doctype while
// transform() streams a Response's body through it.
//
// # How it works
//
// Text and comment handlers of a selector see the text and comments of
// every element it matches, descendants included, once per chunk however
// many of the open elements match; text comes in chunks as the input
// does, and each text node ends with an empty chunk whose lastInTextNode
// is true, as in lol-html.
//
// Go does the per-token work: golang.org/x/net/html's tokenizer splits
// each chunk of the body into tokens (a token that a chunk cuts off waits
// for the next chunk; see feed.go), a stack of open elements stands in
// for the document tree, and the selectors, parsed here, are matched on
// every start tag against that stack (each open element remembers which
// compound selectors it matched, so combinators only test bits). For each
// chunk Go reports only the tokens some handler sees — start tags that
// element handlers match, the end tags that close them, text and comments
// inside elements with text or comment handlers — as offsets into the
// chunk. JavaScript calls the handlers in order, awaiting those that
// return promises, applies their mutations as lol-html does, and hands Go
// the output as strings and offsets; markup no handler changed is copied
// through byte for byte.
//
// Selectors are the subset lol-html supports: *, E, E.class, E#id,
// [attr], [attr=v] with ~= |= ^= $= *= and the i and s flags, descendant
// and child combinators, :nth-child(), :first-child, :nth-of-type(),
// :first-of-type, :not() of compound selectors, and comma lists. Others
// (sibling combinators, :last-child, pseudo-elements, namespaces…) throw
// a TypeError from on(), naming what is unsupported. Attribute values,
// text and comments are seen as written, without decoding character
// references, as in lol-html; values of the attributes HTML lists as
// case-insensitive (rel, type, lang…) match ASCII case-insensitively.
//
// # What other preludes and tests use
//
//   - internal.rewriteHTML(rewriter, input, options) → Promise<string>
//     runs a rewriter over a string without streams: whole, or in
//     options.chunkSize-byte pieces of its UTF-8, or over an array of
//     chunks (strings or bytes).
//
// # Differences
//
// The document is read as UTF-8 whatever charset its Content-Type names
// (lol-html decodes the named charset). Bytes no handler touches still go
// out unchanged, but handlers see other encodings' non-ASCII text and
// attribute values as U+FFFD, and content they insert is written as UTF-8.
//
// Elements HTML's parser closes without an end tag are closed here too:
// an open p when a block starts, a list item or dd/dt by the next one,
// option and optgroup, table rows, cells and sections, and head by body.
// lol-html keeps them open until an ancestor's end tag, so there `ul > li`
// and li:nth-child(2) miss the second of two unclosed list items, which
// match here as in a browser. At such an implied end, each element closed
// gets an end of its own: its end-tag handler runs (with an EndTag whose
// removal removes nothing) and its append() and after() content goes
// where the next element starts. A written end tag that closes several
// elements is, as in lol-html, one EndTag that their end-tag handlers
// see in turn, innermost first. Elements still open at the end of the
// document get no end-tag handler, as in lol-html.
//
// lol-html's strict mode, which stops with a parser error on markup whose
// tokenizing depends on tree-building state it does not keep (a script,
// style or other raw text element inside a select or after a frameset),
// and its 3 MiB buffering limit are not reproduced: such documents are
// tokenized as golang.org/x/net/html does. Element has
// selfClosing and canHaveContent, as lol-html's Rust API has. Chunks of
// the body's stream may be strings (read as UTF-8) as well as bytes.
// transform() drops the Content-Length header, since the length changes.
package htmlrewriter
