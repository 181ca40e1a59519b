package jsbind

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/jsworker/webapi/fetch"
	"github.com/dwk/fleet/appliance/worker"
)

// R2 is the R2Bucket object of an R2 binding. Call it on the loop.
func R2(iso *jsrt.Isolate, b worker.R2Bucket) goja.Value {
	return construct(iso, "r2Bucket", iso.Runtime().ToValue(b))
}

// r2Error is the error of a failed bucket call: the call's name, as
// Cloudflare's messages start, and what went wrong.
func r2Error(op string, err error) error {
	return fmt.Errorf("%s: %w", op, err)
}

// jsonText settles a promise with v as JSON text, which r2.js parses.
func jsonText(v any) (jsrt.Settle, error) {
	text, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return func(rt *goja.Runtime) (goja.Value, error) { return rt.ToValue(string(text)), nil }, nil
}

func installR2(iso *jsrt.Isolate, b *goja.Object) {
	rt := iso.Runtime()
	bucket := func(v goja.Value) worker.R2Bucket {
		bk, ok := v.Export().(worker.R2Bucket)
		if !ok {
			panic(rt.NewTypeError("not an R2 bucket"))
		}
		return bk
	}
	// r2Head(bucket, key) → object JSON | null
	b.Set("r2Head", func(c goja.FunctionCall) goja.Value {
		bk, key := bucket(c.Argument(0)), c.Argument(1).String()
		return call(iso, func(ctx context.Context) (jsrt.Settle, error) {
			o, err := bk.Head(ctx, key)
			if errors.Is(err, worker.ErrNotFound) {
				return nil, nil
			}
			if err != nil {
				return nil, r2Error("head", err)
			}
			return jsonText(newR2Object(o, true, true))
		})
	})
	// r2Get(bucket, key, {onlyIf, range}) → undefined (no object) |
	// [object JSON, body handle or null when onlyIf failed]
	b.Set("r2Get", func(c goja.FunctionCall) goja.Value {
		bk, key, o := bucket(c.Argument(0)), c.Argument(1).String(), objectArg(c.Argument(2))
		opts := &worker.R2GetOptions{OnlyIf: o.obj("onlyIf").conditional()}
		if r := o.obj("range"); r.o != nil {
			opts.Range = &worker.R2Range{Offset: r.int("offset"), Length: r.int("length"), Suffix: r.int("suffix")}
		}
		ev := iso.Current()
		return call(iso, func(ctx context.Context) (jsrt.Settle, error) {
			ob, err := bk.Get(ctx, key, opts)
			switch {
			case errors.Is(err, worker.ErrNotFound):
				return nil, nil
			case errors.Is(err, worker.ErrPreconditionFailed) && ob != nil:
			case err != nil:
				return nil, r2Error("get", err)
			}
			text, jerr := json.Marshal(newR2Object(&ob.R2Object, true, true))
			if jerr != nil {
				if ob.Body != nil {
					ob.Body.Close()
				}
				return nil, jerr
			}
			return func(rt *goja.Runtime) (goja.Value, error) {
				var h goja.Value = goja.Null()
				if ob.Body != nil {
					h = fetch.BodyHandle(ev, ob.Body)
				}
				return rt.NewArray(string(text), h), nil
			}, nil
		})
	})
	// r2Put(bucket, key, value, {onlyIf, httpMetadata, customMetadata,
	// md5 | sha1 | sha256 | sha384 | sha512}) → object JSON | null (onlyIf failed)
	b.Set("r2Put", func(c goja.FunctionCall) goja.Value {
		bk, key, o := bucket(c.Argument(0)), c.Argument(1).String(), objectArg(c.Argument(3))
		opts := &worker.R2PutOptions{OnlyIf: o.obj("onlyIf").conditional(), HTTPMetadata: o.obj("httpMetadata").httpMetadata()}
		var err error
		if opts.CustomMetadata, err = o.strings(rt, "customMetadata"); err != nil {
			iso.Throw(err)
		}
		ck, sum, err := o.digest(iso)
		if err != nil {
			iso.Throw(err)
		}
		body, done, err := r2Body(iso, c.Argument(2))
		if err != nil {
			iso.Throw(err)
		}
		switch {
		case ck == nil:
		case ck.option == "md5":
			opts.MD5 = sum
		case ck.option == "sha256":
			opts.SHA256 = sum
		default:
			body = &verified{r: body, h: ck.hash(), sum: sum, name: ck.name}
		}
		return call(iso, func(ctx context.Context) (jsrt.Settle, error) {
			defer done()
			ob, err := bk.Put(ctx, key, body, opts)
			if errors.Is(err, worker.ErrPreconditionFailed) {
				return nil, nil
			}
			if err != nil {
				return nil, r2Error("put", err)
			}
			out := newR2Object(ob, true, true)
			out.HTTPMetadata, out.CustomMetadata = sent(opts.HTTPMetadata, opts.CustomMetadata)
			return jsonText(out)
		})
	})
	// r2Delete(bucket, [key, ...])
	b.Set("r2Delete", func(c goja.FunctionCall) goja.Value {
		bk := bucket(c.Argument(0))
		var keys []string
		if err := rt.ExportTo(c.Argument(1), &keys); err != nil {
			panic(rt.NewTypeError("delete() takes a key or an array of keys"))
		}
		return call(iso, func(ctx context.Context) (jsrt.Settle, error) {
			if err := bk.Delete(ctx, keys...); err != nil {
				return nil, r2Error("delete", err)
			}
			return nil, nil
		})
	})
	// r2List(bucket, {limit, prefix, cursor, delimiter, startAfter},
	// includeHTTP, includeCustom) → JSON {objects, truncated, cursor, delimitedPrefixes}
	b.Set("r2List", func(c goja.FunctionCall) goja.Value {
		bk, o := bucket(c.Argument(0)), objectArg(c.Argument(1))
		withHTTP, withCustom := c.Argument(2).ToBoolean(), c.Argument(3).ToBoolean()
		opts := &worker.R2ListOptions{
			Limit: int(o.int("limit")), Prefix: o.str("prefix"), Cursor: o.str("cursor"),
			Delimiter: o.str("delimiter"), StartAfter: o.str("startAfter"),
		}
		return call(iso, func(ctx context.Context) (jsrt.Settle, error) {
			page, err := bk.List(ctx, opts)
			if err != nil {
				return nil, r2Error("list", err)
			}
			out, err := listed(ctx, bk, page, withHTTP, withCustom)
			if err != nil {
				return nil, err
			}
			return jsonText(out)
		})
	})
	installMultipart(iso, b, bucket)
}

// sent is the metadata put() reports: what it sent, as Cloudflare does.
func sent(m worker.R2HTTPMetadata, custom map[string]string) (*r2HTTPMetadata, *map[string]string) {
	o := newR2Object(&worker.R2Object{HTTPMetadata: m, CustomMetadata: custom}, true, true)
	return o.HTTPMetadata, o.CustomMetadata
}

// r2Objects is a page of list() as r2.js reads it.
type r2Objects struct {
	Objects           []r2Object `json:"objects"`
	Truncated         bool       `json:"truncated"`
	Cursor            string     `json:"cursor,omitempty"`
	DelimitedPrefixes []string   `json:"delimitedPrefixes"`
}

// listed converts a page of List. Backends that list no metadata (S3's
// listing has no version, metadata or checksums) have each object whose
// metadata was asked for read with Head.
func listed(ctx context.Context, bk worker.R2Bucket, page *worker.R2Objects, withHTTP, withCustom bool) (r2Objects, error) {
	out := r2Objects{Objects: make([]r2Object, len(page.Objects)), Truncated: page.Truncated, DelimitedPrefixes: page.DelimitedPrefixes}
	if page.Truncated {
		out.Cursor = page.Cursor
	}
	if out.DelimitedPrefixes == nil {
		out.DelimitedPrefixes = []string{}
	}
	for k := range page.Objects {
		o := &page.Objects[k]
		if (withHTTP || withCustom) && o.Version == "" {
			full, err := bk.Head(ctx, o.Key)
			switch {
			case errors.Is(err, worker.ErrNotFound):
				// deleted since it was listed: report what the listing had
			case err != nil:
				return r2Objects{}, r2Error("list", err)
			default:
				o = full
			}
		}
		out.Objects[k] = newR2Object(o, withHTTP, withCustom)
	}
	return out, nil
}
