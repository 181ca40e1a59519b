package journal

import (
	"bytes"
	"context"
	"log/slog"
	"net"
	"strconv"
	"sync"
	"time"
)

// Socket is where journald takes native-protocol datagrams.
const Socket = "/run/systemd/journal/socket"

// writeTimeout bounds sending one record to the journal.
const writeTimeout = time.Second

// Options configure a Handler.
type Options struct {
	// Level is the least level logged. Default: INFO.
	Level slog.Leveler
	// Identifier is SYSLOG_IDENTIFIER. Default: "dwk".
	Identifier string
	// Fields are set on every record, e.g. MEMBER; an attribute of the
	// same name does not replace one.
	Fields map[string]string
	// Fallback gets the records the journal refused (its socket gone):
	// nothing is dropped silently. Required.
	Fallback slog.Handler
}

// Handler writes records to the journal. It is safe for concurrent use.
type Handler struct {
	opts   Options
	conn   *net.UnixConn
	text   slog.Handler // renders MESSAGE's attributes
	buf    *bytes.Buffer
	mu     *sync.Mutex // guards buf and text's output
	attrs  []slog.Attr // bound by WithAttrs, keys prefixed by their groups
	prefix string      // open groups, "a.b."
}

// New returns a Handler that sends to the journal's socket.
func New(opts Options) (*Handler, error) {
	conn, err := net.DialUnix("unixgram", nil, &net.UnixAddr{Name: Socket, Net: "unixgram"})
	if err != nil {
		return nil, err
	}
	return newHandler(conn, opts), nil
}

func newHandler(conn *net.UnixConn, opts Options) *Handler {
	if opts.Level == nil {
		opts.Level = slog.LevelInfo
	}
	if opts.Identifier == "" {
		opts.Identifier = "dwk"
	}
	buf := &bytes.Buffer{}
	text := slog.NewTextHandler(buf, &slog.HandlerOptions{Level: slog.LevelDebug, ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
		if len(groups) == 0 && (a.Key == slog.TimeKey || a.Key == slog.LevelKey || a.Key == slog.MessageKey) {
			return slog.Attr{}
		}
		return a
	}})
	return &Handler{opts: opts, conn: conn, text: text, buf: buf, mu: &sync.Mutex{}}
}

// Enabled implements slog.Handler.
func (h *Handler) Enabled(_ context.Context, l slog.Level) bool { return l >= h.opts.Level.Level() }

// WithAttrs implements slog.Handler.
func (h *Handler) WithAttrs(as []slog.Attr) slog.Handler {
	c := *h
	c.text = h.text.WithAttrs(as)
	c.attrs = append(append([]slog.Attr(nil), h.attrs...), prefixed(h.prefix, as)...)
	c.opts.Fallback = h.opts.Fallback.WithAttrs(as)
	return &c
}

// WithGroup implements slog.Handler.
func (h *Handler) WithGroup(name string) slog.Handler {
	if name == "" {
		return h
	}
	c := *h
	c.text = h.text.WithGroup(name)
	c.prefix = h.prefix + name + "."
	c.opts.Fallback = h.opts.Fallback.WithGroup(name)
	return &c
}

// Handle implements slog.Handler: one datagram per record.
func (h *Handler) Handle(ctx context.Context, r slog.Record) error {
	h.mu.Lock()
	h.buf.Reset()
	_ = h.text.Handle(ctx, r)
	rest := bytes.TrimSpace(h.buf.Bytes())
	msg := r.Message
	if len(rest) > 0 {
		msg += " " + string(rest)
	}
	h.mu.Unlock()

	b := appendField(nil, "MESSAGE", msg)
	b = appendField(b, "PRIORITY", strconv.Itoa(priority(r.Level)))
	b = appendField(b, "LEVEL", r.Level.String())
	b = appendField(b, "SYSLOG_IDENTIFIER", h.opts.Identifier)
	// Fields win over attributes of the same name (a record's "member"
	// may name a peer; MEMBER is this replica), which MESSAGE still shows.
	seen := map[string]bool{}
	for k, v := range h.opts.Fields {
		b = appendField(b, fieldName(k), v)
		seen[fieldName(k)] = true
	}
	add := func(a slog.Attr) {
		name := fieldName(a.Key)
		if a.Key == "" || seen[name] {
			return
		}
		seen[name] = true
		b = appendField(b, name, a.Value.Resolve().String())
	}
	// The record's own attributes first: they are the more specific.
	var own []slog.Attr
	r.Attrs(func(a slog.Attr) bool { own = append(own, a); return true })
	for _, a := range flatten(prefixed(h.prefix, own)) {
		add(a)
	}
	for _, a := range flatten(h.attrs) {
		add(a)
	}
	// A journal that stops reading fills the socket's queue; the record
	// then goes to the fallback rather than blocking the program.
	h.conn.SetWriteDeadline(time.Now().Add(writeTimeout))
	if _, err := h.conn.Write(b); err != nil {
		return h.opts.Fallback.Handle(ctx, r)
	}
	return nil
}

// priority is the syslog priority of a level.
func priority(l slog.Level) int {
	switch {
	case l >= slog.LevelError:
		return 3
	case l >= slog.LevelWarn:
		return 4
	case l >= slog.LevelInfo:
		return 6
	default:
		return 7
	}
}

// prefixed returns as with prefix put before each key.
func prefixed(prefix string, as []slog.Attr) []slog.Attr {
	if prefix == "" {
		return as
	}
	out := make([]slog.Attr, len(as))
	for i, a := range as {
		out[i] = slog.Attr{Key: prefix + a.Key, Value: a.Value}
	}
	return out
}

// flatten expands group attributes into "group.key" ones.
func flatten(as []slog.Attr) []slog.Attr {
	var out []slog.Attr
	for _, a := range as {
		v := a.Value.Resolve()
		if v.Kind() != slog.KindGroup {
			out = append(out, slog.Attr{Key: a.Key, Value: v})
			continue
		}
		for _, g := range flatten(v.Group()) {
			key := g.Key
			if a.Key != "" {
				key = a.Key + "." + g.Key
			}
			out = append(out, slog.Attr{Key: key, Value: g.Value})
		}
	}
	return out
}
