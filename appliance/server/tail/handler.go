package tail

import (
	"context"
	"log/slog"
)

type collectorKey struct{}

// WithCollector returns ctx carrying a new Collector: records logged
// under it through a Handler are gathered there.
func WithCollector(ctx context.Context) (context.Context, *Collector) {
	c := &Collector{}
	return context.WithValue(ctx, collectorKey{}, c), c
}

func collectorOf(ctx context.Context) *Collector {
	if ctx == nil {
		return nil
	}
	c, _ := ctx.Value(collectorKey{}).(*Collector)
	return c
}

// Handler wraps a slog.Handler: a record logged under a context with a
// Collector is gathered there too, whatever the inner handler's level.
type Handler struct{ inner slog.Handler }

// NewHandler wraps inner.
func NewHandler(inner slog.Handler) *Handler { return &Handler{inner: inner} }

// Enabled is true when inner is, or when ctx gathers records.
func (h *Handler) Enabled(ctx context.Context, l slog.Level) bool {
	return h.inner.Enabled(ctx, l) || collectorOf(ctx) != nil
}

// Handle gathers rec when ctx has a Collector, and passes it on when
// inner is enabled for its level.
func (h *Handler) Handle(ctx context.Context, rec slog.Record) error {
	if c := collectorOf(ctx); c != nil {
		c.add(rec)
	}
	if !h.inner.Enabled(ctx, rec.Level) {
		return nil
	}
	return h.inner.Handle(ctx, rec)
}

// WithAttrs wraps inner's.
func (h *Handler) WithAttrs(as []slog.Attr) slog.Handler {
	return &Handler{inner: h.inner.WithAttrs(as)}
}

// WithGroup wraps inner's.
func (h *Handler) WithGroup(name string) slog.Handler {
	return &Handler{inner: h.inner.WithGroup(name)}
}
