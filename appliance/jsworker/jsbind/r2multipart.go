package jsbind

import (
	"context"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/worker"
)

// r2Part is an uploaded part as r2.js reads it.
type r2Part struct {
	PartNumber int    `json:"partNumber"`
	ETag       string `json:"etag"`
}

func installMultipart(iso *jsrt.Isolate, b *goja.Object, bucket func(goja.Value) worker.R2Bucket) {
	rt := iso.Runtime()
	upload := func(v goja.Value) worker.R2MultipartUpload {
		u, ok := v.Export().(worker.R2MultipartUpload)
		if !ok {
			panic(rt.NewTypeError("not an R2 multipart upload"))
		}
		return u
	}
	// r2CreateUpload(bucket, key, {httpMetadata, customMetadata}) → [upload, key, uploadId]
	b.Set("r2CreateUpload", func(c goja.FunctionCall) goja.Value {
		bk, key, o := bucket(c.Argument(0)), c.Argument(1).String(), objectArg(c.Argument(2))
		opts := &worker.R2MultipartOptions{HTTPMetadata: o.obj("httpMetadata").httpMetadata()}
		var err error
		if opts.CustomMetadata, err = o.strings(rt, "customMetadata"); err != nil {
			iso.Throw(err)
		}
		return call(iso, func(ctx context.Context) (jsrt.Settle, error) {
			u, err := bk.CreateMultipartUpload(ctx, key, opts)
			if err != nil {
				return nil, r2Error("createMultipartUpload", err)
			}
			return func(rt *goja.Runtime) (goja.Value, error) {
				return rt.NewArray(u, u.Key(), u.UploadID()), nil
			}, nil
		})
	})
	// r2ResumeUpload(bucket, key, uploadId) → upload
	b.Set("r2ResumeUpload", func(c goja.FunctionCall) goja.Value {
		return rt.ToValue(bucket(c.Argument(0)).ResumeMultipartUpload(c.Argument(1).String(), c.Argument(2).String()))
	})
	// r2UploadPart(upload, partNumber, value) → part JSON
	b.Set("r2UploadPart", func(c goja.FunctionCall) goja.Value {
		u, n := upload(c.Argument(0)), int(c.Argument(1).ToInteger())
		body, done, err := r2Body(iso, c.Argument(2))
		if err != nil {
			iso.Throw(err)
		}
		return call(iso, func(ctx context.Context) (jsrt.Settle, error) {
			defer done()
			p, err := u.UploadPart(ctx, n, body)
			if err != nil {
				return nil, r2Error("uploadPart", err)
			}
			return jsonText(r2Part{PartNumber: p.PartNumber, ETag: p.ETag})
		})
	})
	// r2Complete(upload, [[partNumber, etag], ...]) → object JSON
	b.Set("r2Complete", func(c goja.FunctionCall) goja.Value {
		u := upload(c.Argument(0))
		var pairs [][]goja.Value
		if err := rt.ExportTo(c.Argument(1), &pairs); err != nil {
			panic(rt.NewTypeError("complete() takes an array of uploaded parts ({partNumber, etag})"))
		}
		parts := make([]worker.R2UploadedPart, len(pairs))
		for k, p := range pairs {
			if len(p) != 2 {
				panic(rt.NewTypeError("complete() takes an array of uploaded parts ({partNumber, etag})"))
			}
			parts[k] = worker.R2UploadedPart{PartNumber: int(p[0].ToInteger()), ETag: p[1].String()}
		}
		return call(iso, func(ctx context.Context) (jsrt.Settle, error) {
			o, err := u.Complete(ctx, parts)
			if err != nil {
				return nil, r2Error("completeMultipartUpload", err)
			}
			return jsonText(newR2Object(o, true, true))
		})
	})
	// r2Abort(upload)
	b.Set("r2Abort", func(c goja.FunctionCall) goja.Value {
		u := upload(c.Argument(0))
		return call(iso, func(ctx context.Context) (jsrt.Settle, error) {
			if err := u.Abort(ctx); err != nil {
				return nil, r2Error("abortMultipartUpload", err)
			}
			return nil, nil
		})
	})
}
