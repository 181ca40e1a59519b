package wrangler

var (
	notFoundHandlings = []string{"none", "404-page", "single-page-application"}
	htmlHandlings     = []string{"auto-trailing-slash", "force-trailing-slash", "drop-trailing-slash", "none"}
)

func readAssets(l *loader, o *obj, k string) {
	a := o.child(k)
	if a == nil {
		return
	}
	as := &Assets{NotFoundHandling: "none", HTMLHandling: "auto-trailing-slash"}
	if dir := a.requiredStr("directory", "the directory of files to serve, relative to this file"); dir != "" {
		as.Directory = l.abs(dir)
	}
	if b, ok := a.str("binding"); ok {
		as.Binding = b
		l.bind(b, a.at("binding"), true)
	}
	if s, ok := a.str("not_found_handling"); ok {
		if oneOf(s, notFoundHandlings) {
			as.NotFoundHandling = s
		} else {
			l.r.errorf(a.at("not_found_handling"), "must be one of %s, got %q", quoteList(notFoundHandlings), s)
		}
	}
	if s, ok := a.str("html_handling"); ok {
		if oneOf(s, htmlHandlings) {
			as.HTMLHandling = s
		} else {
			l.r.errorf(a.at("html_handling"), "must be one of %s, got %q", quoteList(htmlHandlings), s)
		}
	}
	if v, ok := a.get("run_worker_first"); ok {
		switch v := v.(type) {
		case bool:
			as.RunWorkerFirst = v
		case []any:
			as.RunWorkerFirstRoutes, _ = l.r.strings(a.at("run_worker_first"), v)
		default:
			l.r.errorf(a.at("run_worker_first"), "must be a boolean or an array of route patterns, got %s", typeName(v))
		}
	}
	if serve, ok := a.boolean("experimental_serve_directly"); ok {
		// The pre-v4 spelling of run_worker_first, inverted. Wrangler v4
		// ignores it; dwk still honours it so older projects keep working.
		if a.has("run_worker_first") {
			l.r.errorf(a.at("experimental_serve_directly"), "conflicts with run_worker_first: remove experimental_serve_directly, which run_worker_first replaced")
		} else {
			as.RunWorkerFirst = !serve
			l.r.warnf(a.at("experimental_serve_directly"), "deprecated: wrangler v4 replaced it with run_worker_first = %t; dwk reads it as that", !serve)
		}
	}
	a.done()
	l.p.Assets = as
}
