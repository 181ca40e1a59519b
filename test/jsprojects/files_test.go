package jsprojects

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// formField is a field of an upload form: a file when filename is set.
type formField struct {
	name, value, filename, ctype string
}

// multipartBody encodes fields as a browser posts a form with
// enctype="multipart/form-data", and returns the body and its type.
func multipartBody(t testing.TB, fields ...formField) ([]byte, string) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for _, f := range fields {
		if f.filename == "" {
			w.WriteField(f.name, f.value)
			continue
		}
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="%s"; filename="%s"`, f.name, f.filename))
		h.Set("Content-Type", f.ctype)
		part, err := w.CreatePart(h)
		if err != nil {
			t.Fatal(err)
		}
		part.Write([]byte(f.value))
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), w.FormDataContentType()
}

// testFiles drives the R2 app: the HTML form's upload as multipart form
// data with metadata, the listing, downloads with ranges and conditional
// requests, and a multipart upload of three parts.
func testFiles(t *testing.T, s *site) {
	files := func(i int, path string) string { return s.url(i, "/files"+path) }

	page := do(t, "GET", files(0, "/"), nil).want(t, 200, "the upload page")
	form := regexp.MustCompile(`<form method="post" action="([^"]+)" enctype="multipart/form-data">`).FindSubmatch(page.body)
	if form == nil || !strings.HasPrefix(page.header.Get("Content-Type"), "text/html") {
		t.Fatalf("the page (%s) has no multipart form:\n%s", page.header.Get("Content-Type"), page.body)
	}
	for _, input := range []string{`name="description"`, `type="file" name="file"`} {
		if !bytes.Contains(page.body, []byte(input)) {
			t.Fatalf("the form has no input %s:\n%s", input, page.body)
		}
	}
	action := string(form[1])

	var csv strings.Builder
	csv.WriteString("quarter,revenue\n")
	for i := 0; csv.Len() < 3000; i++ {
		fmt.Fprintf(&csv, "Q%d-%d,%d\n", i%4+1, 2000+i, i*1337)
	}
	content := csv.String()[:3000]

	upload := func(i int, accept string, fields ...formField) response {
		t.Helper()
		body, ctype := multipartBody(t, fields...)
		return do(t, "POST", s.url(i, action), body, "Content-Type", ctype, "Accept", accept)
	}

	t.Run("validation", func(t *testing.T) {
		for _, tc := range []struct {
			name   string
			fields []formField
			want   string
		}{
			{"no file", []formField{{name: "description", value: "x"}}, "file must be a file"},
			{"a string for the file", []formField{{name: "description", value: "x"}, {name: "file", value: "not a file"}}, "file must be a file"},
			{"empty file", []formField{{name: "description", value: "x"}, {name: "file", filename: "e.txt", ctype: "text/plain"}}, "file must not be empty"},
			{"long description", []formField{{name: "description", value: strings.Repeat("d", 201)}, {name: "file", value: "x", filename: "x.txt", ctype: "text/plain"}}, "description must be at most 200 characters"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				var e struct{ Error string }
				upload(0, "", tc.fields...).want(t, 400, tc.name).json(t, &e)
				if e.Error != tc.want {
					t.Errorf("error %q, want %q", e.Error, tc.want)
				}
			})
		}
	})

	var up struct {
		Key  string
		Size int
		Etag string
	}
	upload(0, "", formField{name: "description", value: " quarterly report "}, formField{name: "file", value: content, filename: "report.csv", ctype: "text/csv"}).
		want(t, 201, "upload").json(t, &up)
	if up.Key != "uploads/report.csv" || up.Size != len(content) || up.Etag == "" {
		t.Fatalf("upload answered %+v", up)
	}

	// A browser's post is answered with a redirect to the page, which lists the file.
	body, ctype := multipartBody(t, formField{name: "description", value: "notes"}, formField{name: "file", value: "hello", filename: "hello world.txt", ctype: "text/plain"})
	req, err := http.NewRequest("POST", s.url(1, action), bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", ctype)
	req.Header.Set("Accept", "text/html")
	resp, err := noRedirects.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if want := s.url(1, "/files/"); resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != want {
		t.Errorf("upload from a browser: %s to %q, want 303 to %q (the page, as the client reached it)", resp.Status, resp.Header.Get("Location"), want)
	}
	after := do(t, "GET", files(0, "/"), nil).want(t, 200, "the page after the uploads")
	for _, want := range []string{`href="/files/object/uploads/report.csv"`, "quarterly report", "uploads/hello_world.txt"} {
		if !bytes.Contains(after.body, []byte(want)) {
			t.Errorf("the page after the upload does not show %q:\n%s", want, after.body)
		}
	}

	t.Run("list", func(t *testing.T) {
		var l struct {
			Objects []struct {
				Key, Etag, ContentType string
				Size                   int
				CustomMetadata         map[string]string
			}
			Truncated bool
		}
		do(t, "GET", files(1, "/list?prefix=uploads/"), nil).want(t, 200, "list").json(t, &l)
		if len(l.Objects) != 2 || l.Truncated {
			t.Fatalf("list = %+v, want the two uploads", l)
		}
		o := l.Objects[1]
		if o.Key != "uploads/report.csv" || o.Size != len(content) || o.ContentType != "text/csv" || o.Etag != up.Etag ||
			o.CustomMetadata["description"] != "quarterly report" || o.CustomMetadata["name"] != "report.csv" {
			t.Errorf("listed %+v", o)
		}
	})

	t.Run("download", func(t *testing.T) {
		obj := files(1, "/object/uploads/report.csv")
		r := do(t, "GET", obj, nil).want(t, 200, "download")
		if string(r.body) != content {
			t.Errorf("downloaded %d bytes, not the %d uploaded", len(r.body), len(content))
		}
		etag := r.header.Get("ETag")
		for h, want := range map[string]string{
			"Content-Type":        "text/csv",
			"Content-Disposition": `attachment; filename="report.csv"`,
			"ETag":                `"` + up.Etag + `"`,
			"X-Meta-Description":  "quarterly report",
			"Content-Length":      fmt.Sprint(len(content)),
		} {
			if got := r.header.Get(h); got != want {
				t.Errorf("%s: %q, want %q", h, got, want)
			}
		}
		for _, tc := range []struct {
			rng, wantRange string
			want           string
		}{
			{"bytes=100-199", "bytes 100-199/3000", content[100:200]},
			{"bytes=2990-", "bytes 2990-2999/3000", content[2990:]},
			{"bytes=-16", "bytes 2984-2999/3000", content[2984:]},
		} {
			r := do(t, "GET", obj, nil, "Range", tc.rng).want(t, 206, tc.rng)
			if string(r.body) != tc.want || r.header.Get("Content-Range") != tc.wantRange {
				t.Errorf("%s: got %q (%s), want %q (%s)", tc.rng, r.body, r.header.Get("Content-Range"), tc.want, tc.wantRange)
			}
		}
		if r := do(t, "GET", files(0, "/object/uploads/report.csv"), nil, "If-None-Match", etag).want(t, 304, "If-None-Match with the ETag"); len(r.body) != 0 || r.header.Get("ETag") != etag {
			t.Errorf("304 with body %q and ETag %q", r.body, r.header.Get("ETag"))
		}
		do(t, "GET", obj, nil, "If-None-Match", `"someone-else"`).want(t, 200, "If-None-Match with another ETag")
		do(t, "GET", obj, nil, "If-Match", `"someone-else"`).want(t, 412, "If-Match with another ETag")
		do(t, "GET", files(0, "/object/uploads/nothing-here"), nil).want(t, 404, "a missing object")
	})

	t.Run("multipart upload", func(t *testing.T) {
		const key = "big/archive.bin"
		mpu := func(i int, q string) string { return files(i, "/mpu/"+key+q) }
		var created struct{ Key, UploadID string }
		do(t, "POST", mpu(0, "?action=create"), nil, "Content-Type", "application/x-archive").want(t, 201, "create").json(t, &created)
		if created.Key != key || created.UploadID == "" {
			t.Fatalf("create answered %+v", created)
		}
		// S3's minimum part size is 5 MiB, but for the last part.
		parts := [][]byte{bytes.Repeat([]byte("a"), 5<<20), bytes.Repeat([]byte("b"), 5<<20), bytes.Repeat([]byte("c"), 1000)}
		type part struct {
			PartNumber int    `json:"partNumber"`
			Etag       string `json:"etag"`
		}
		uploaded := make([]part, len(parts))
		var wg sync.WaitGroup
		for i, p := range parts {
			wg.Add(1)
			go func() {
				defer wg.Done()
				// The parts go up at once, through both doors.
				r, err := send("PUT", mpu(i, fmt.Sprintf("?action=part&uploadId=%s&partNumber=%d", created.UploadID, i+1)), p)
				if err == nil && r.status != 200 {
					err = fmt.Errorf("got %s", r)
				}
				if err == nil {
					err = json.Unmarshal(r.body, &uploaded[i])
				}
				if err != nil {
					t.Errorf("part %d: %v", i+1, err)
				}
			}()
		}
		wg.Wait()
		if t.Failed() {
			return
		}
		var done struct {
			Key  string
			Size int
		}
		do(t, "POST", mpu(1, "?action=complete&uploadId="+created.UploadID), map[string]any{"parts": uploaded}).want(t, 200, "complete").json(t, &done)
		whole := bytes.Join(parts, nil)
		if done.Key != key || done.Size != len(whole) {
			t.Fatalf("complete answered %+v, want %d bytes", done, len(whole))
		}
		r := do(t, "GET", files(0, "/object/"+key), nil).want(t, 200, "download the assembled object")
		if sha256.Sum256(r.body) != sha256.Sum256(whole) || r.header.Get("Content-Type") != "application/x-archive" {
			t.Errorf("the object (%d bytes, %s) is not the parts in order", len(r.body), r.header.Get("Content-Type"))
		}
		edge := fmt.Sprintf("bytes=%d-%d", 5<<20-2, 5<<20+1)
		if r := do(t, "GET", files(1, "/object/"+key), nil, "Range", edge).want(t, 206, "a range across parts"); string(r.body) != "aabb" {
			t.Errorf("range %s = %q, want aabb", edge, r.body)
		}

		var aborted struct{ UploadID string }
		do(t, "POST", mpu(1, "?action=create"), nil).want(t, 201, "create another").json(t, &aborted)
		do(t, "DELETE", mpu(0, "?uploadId="+aborted.UploadID), nil).want(t, 204, "abort")
		do(t, "PUT", mpu(1, "?action=part&partNumber=1&uploadId="+aborted.UploadID), "late part").want(t, 400, "a part for an aborted upload")
	})
}
