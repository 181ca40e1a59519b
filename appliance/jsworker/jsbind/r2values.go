package jsbind

import (
	"bytes"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"strings"
	"time"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/jsworker/webapi/fetch"
	"github.com/dwk/fleet/appliance/worker"
)

// r2Object is an object's metadata as r2.js reads it (JSON).
type r2Object struct {
	Key            string             `json:"key"`
	Version        string             `json:"version"`
	Size           int64              `json:"size"`
	ETag           string             `json:"etag"`
	HTTPETag       string             `json:"httpEtag"`
	Uploaded       int64              `json:"uploaded"` // Unix milliseconds
	HTTPMetadata   *r2HTTPMetadata    `json:"httpMetadata,omitempty"`
	CustomMetadata *map[string]string `json:"customMetadata,omitempty"`
	Checksums      r2Checksums        `json:"checksums"`
	Range          *r2Range           `json:"range,omitempty"`
	StorageClass   string             `json:"storageClass"`
}

type r2HTTPMetadata struct {
	ContentType        string `json:"contentType,omitempty"`
	ContentLanguage    string `json:"contentLanguage,omitempty"`
	ContentDisposition string `json:"contentDisposition,omitempty"`
	ContentEncoding    string `json:"contentEncoding,omitempty"`
	CacheControl       string `json:"cacheControl,omitempty"`
	CacheExpiry        int64  `json:"cacheExpiry,omitempty"` // Unix milliseconds
}

// r2Checksums are hex digests.
type r2Checksums struct {
	MD5    string `json:"md5,omitempty"`
	SHA256 string `json:"sha256,omitempty"`
}

type r2Range struct {
	Offset int64 `json:"offset"`
	Length int64 `json:"length"`
}

// storageClass is the only storage class dwk's buckets have.
const storageClass = "Standard"

// newR2Object converts o; withHTTP and withCustom say whether its
// metadata is reported (list() reports it only when included).
func newR2Object(o *worker.R2Object, withHTTP, withCustom bool) r2Object {
	out := r2Object{
		Key: o.Key, Version: o.Version, Size: o.Size, ETag: o.ETag, HTTPETag: o.HTTPETag,
		Uploaded: o.Uploaded.UnixMilli(), StorageClass: storageClass,
		Checksums: r2Checksums{MD5: hex.EncodeToString(o.Checksums.MD5), SHA256: hex.EncodeToString(o.Checksums.SHA256)},
	}
	// R2 reports the MD5 of every object put whole: its ETag.
	if out.Checksums.MD5 == "" && len(o.ETag) == 32 && !strings.Contains(o.ETag, "-") {
		out.Checksums.MD5 = o.ETag
	}
	if withHTTP {
		m := o.HTTPMetadata
		out.HTTPMetadata = &r2HTTPMetadata{
			ContentType: m.ContentType, ContentLanguage: m.ContentLanguage, ContentDisposition: m.ContentDisposition,
			ContentEncoding: m.ContentEncoding, CacheControl: m.CacheControl,
		}
		if !m.CacheExpiry.IsZero() {
			out.HTTPMetadata.CacheExpiry = m.CacheExpiry.UnixMilli()
		}
	}
	if withCustom {
		cm := o.CustomMetadata
		if cm == nil {
			cm = map[string]string{}
		}
		out.CustomMetadata = &cm
	}
	if o.Range != nil {
		out.Range = &r2Range{Offset: o.Range.Offset, Length: o.Range.Length}
	}
	return out
}

// jsObject reads an options object that r2.js normalized: fields are
// undefined, strings, numbers (times in Unix milliseconds), or objects of
// the same kind.
type jsObject struct{ o *goja.Object }

func objectArg(v goja.Value) jsObject {
	o, _ := v.(*goja.Object)
	return jsObject{o}
}

func (j jsObject) get(name string) goja.Value {
	if j.o == nil {
		return goja.Undefined()
	}
	if v := j.o.Get(name); v != nil {
		return v
	}
	return goja.Undefined()
}

func (j jsObject) str(name string) string {
	if v := j.get(name); !absent(v) {
		return v.String()
	}
	return ""
}

func (j jsObject) int(name string) int64 {
	if v := j.get(name); !absent(v) {
		return v.ToInteger()
	}
	return 0
}

func (j jsObject) time(name string) time.Time {
	if v := j.get(name); !absent(v) {
		return time.UnixMilli(v.ToInteger())
	}
	return time.Time{}
}

func (j jsObject) obj(name string) jsObject { return objectArg(j.get(name)) }

func (j jsObject) strings(rt *goja.Runtime, name string) (map[string]string, error) {
	v := j.get(name)
	if absent(v) {
		return nil, nil
	}
	var m map[string]string
	if err := rt.ExportTo(v, &m); err != nil {
		return nil, jsrt.Errorf("TypeError", "%s must map names to strings: %v", name, err)
	}
	return m, nil
}

// conditional is an onlyIf: nil when there is none.
func (j jsObject) conditional() *worker.R2Conditional {
	if j.o == nil {
		return nil
	}
	return &worker.R2Conditional{
		EtagMatches: j.str("etagMatches"), EtagDoesNotMatch: j.str("etagDoesNotMatch"),
		UploadedBefore: j.time("uploadedBefore"), UploadedAfter: j.time("uploadedAfter"),
	}
}

func (j jsObject) httpMetadata() worker.R2HTTPMetadata {
	return worker.R2HTTPMetadata{
		ContentType: j.str("contentType"), ContentLanguage: j.str("contentLanguage"),
		ContentDisposition: j.str("contentDisposition"), ContentEncoding: j.str("contentEncoding"),
		CacheControl: j.str("cacheControl"), CacheExpiry: j.time("cacheExpiry"),
	}
}

// checksum is one of the digests put() may check.
type checksum struct {
	option string // the option's name
	name   string // the algorithm's, for errors
	size   int
	hash   func() hash.Hash
}

var checksums = []checksum{
	{"md5", "MD5", md5.Size, md5.New},
	{"sha1", "SHA-1", sha1.Size, sha1.New},
	{"sha256", "SHA-256", sha256.Size, sha256.New},
	{"sha384", "SHA-384", sha512.Size384, sha512.New384},
	{"sha512", "SHA-512", sha512.Size, sha512.New},
}

// digest reads the one checksum option of a put, as Cloudflare takes it:
// bytes, or a hex string. c is nil when there is none.
func (j jsObject) digest(iso *jsrt.Isolate) (c *checksum, sum []byte, err error) {
	for k := range checksums {
		ck := &checksums[k]
		v := j.get(ck.option)
		if absent(v) {
			continue
		}
		if c != nil {
			return nil, nil, jsrt.Errorf("TypeError", "You cannot specify multiple hashing algorithms.")
		}
		c = ck
		if b, ok := iso.Bytes(v); ok {
			if len(b) != ck.size {
				return nil, nil, jsrt.Errorf("TypeError", "%s is %d bytes, not %d", ck.name, ck.size, len(b))
			}
			sum = append([]byte(nil), b...)
			continue
		}
		s, ok := v.Export().(string)
		if !ok {
			return nil, nil, jsrt.Errorf("TypeError", "%s must be an ArrayBuffer, a view or a hex string", ck.option)
		}
		if len(s) != 2*ck.size {
			return nil, nil, jsrt.Errorf("TypeError", "%s is %d hex characters, not %d", ck.name, 2*ck.size, len(s))
		}
		if sum, err = hex.DecodeString(s); err != nil {
			return nil, nil, jsrt.Errorf("TypeError", "Provided %s wasn't a valid hex string", ck.name)
		}
	}
	return c, sum, nil
}

// r2Body is the reader of a put's or an uploadPart's value: a string or
// bytes (copied), nothing (null), or a ReadableStream that Go reads chunk
// by chunk as the bucket consumes it. Call close when the call is over:
// it cancels a stream the call did not read to its end.
func r2Body(iso *jsrt.Isolate, v goja.Value) (r io.Reader, close func(), err error) {
	if absent(v) {
		return bytes.NewReader(nil), func() {}, nil
	}
	if b, ok := bytesArg(iso, v); ok {
		return bytes.NewReader(b), func() {}, nil
	}
	sr, err := fetch.NewStreamReader(iso.Current(), v)
	if err != nil {
		return nil, nil, jsrt.Errorf("TypeError", "the value must be a ReadableStream, ArrayBuffer, ArrayBufferView, string, Blob or null: %v", err)
	}
	return sr, func() { sr.Close() }, nil
}

// verified passes r through, and at its end fails with
// worker.ErrChecksumMismatch unless its digest is sum: a put whose body
// fails to read stores nothing.
type verified struct {
	r    io.Reader
	h    hash.Hash
	sum  []byte
	name string
}

var _ io.Reader = (*verified)(nil)

func (v *verified) Read(p []byte) (int, error) {
	n, err := v.r.Read(p)
	v.h.Write(p[:n])
	if errors.Is(err, io.EOF) && !bytes.Equal(v.h.Sum(nil), v.sum) {
		return n, fmt.Errorf("%w: the body's %s is %x, not %x", worker.ErrChecksumMismatch, v.name, v.h.Sum(nil), v.sum)
	}
	return n, err
}
