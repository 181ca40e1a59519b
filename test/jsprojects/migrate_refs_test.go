package jsprojects

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/bindings/queue"
	"github.com/dwk/fleet/appliance/migrate"
	"github.com/dwk/fleet/appliance/server/storeset"
	"github.com/dwk/fleet/appliance/worker"
	"github.com/dwk/fleet/test/wait"
)

// refStored is what fillRefWorkers wrote through the Go reference
// workers: a counter with a pending alarm, and a chat room's messages and
// attachment.
type refStored struct {
	texts      []string
	attachment string // its body
	url        string // its download path
}

// The counter and room fillRefWorkers fills; the counter's value.
const (
	movedCounter = "moved"
	movedRoom    = "moved"
	counterValue = 3
)

// fillRefWorkers increments a counter and arms its alarm, posts chat
// messages and an attachment through s, and waits until the chat's
// notification consumer has recorded every message, so that no
// notification is left in the queue to change the chat's database later.
func fillRefWorkers(t *testing.T, s *site) refStored {
	t.Helper()
	for range counterValue {
		do(t, "POST", s.url(0, "/counter/"+movedCounter+"/increment"), nil).want(t, 200, "increment")
	}
	do(t, "POST", s.url(0, "/counter/"+movedCounter+"/alarm?in=20s"), nil).want(t, 200, "arm the counter's alarm")
	v := refStored{attachment: "attached ✓\n"}
	for i := range 2 {
		text := "moved message " + string(rune('a'+i))
		do(t, "POST", s.url(0, "/chat/rooms/"+movedRoom+"/messages"), map[string]string{"user": "ann", "text": text}).want(t, 200, "post "+text)
		v.texts = append(v.texts, text)
	}
	var m struct{ Attachment struct{ URL string } }
	do(t, "POST", s.url(0, "/chat/rooms/"+movedRoom+"/attachments?user=ann&name=notes.txt"), v.attachment, "Content-Type", "text/plain").want(t, 200, "attach").json(t, &m)
	v.url = m.Attachment.URL
	wait.Within(t, 30*time.Second, "the chat's consumer to record every message", func() bool {
		var st struct{ Messages, Notifications int }
		do(t, "GET", s.url(0, "/chat/stats"), nil).want(t, 200, "chat stats").json(t, &st)
		return st.Messages == len(v.texts)+1 && st.Notifications == st.Messages
	})
	return v
}

// counterAlarm is the counter's alarm, as GET /counter/{name}/alarm says.
type counterAlarm struct {
	AlarmAt *string `json:"alarm_at"`
	Fired   int64   `json:"fired"`
}

func readCounterAlarm(t *testing.T, s *site, i int) counterAlarm {
	t.Helper()
	var a counterAlarm
	do(t, "GET", s.url(i, "/counter/"+movedCounter+"/alarm"), nil).want(t, 200, "counter alarm").json(t, &a)
	return a
}

// checkRefWorkers reads the counter, the room's history and the
// attachment through door i of s.
func checkRefWorkers(t *testing.T, s *site, i int, want refStored) {
	t.Helper()
	var c struct{ Value int }
	if do(t, "GET", s.url(i, "/counter/"+movedCounter), nil).want(t, 200, "counter").json(t, &c); c.Value != counterValue {
		t.Errorf("door %d: counter %s = %d, want %d", i, movedCounter, c.Value, counterValue)
	}
	var history []struct{ Text string }
	do(t, "GET", s.url(i, "/chat/rooms/"+movedRoom+"/messages"), nil).want(t, 200, "history").json(t, &history)
	var texts []string
	for _, m := range history {
		texts = append(texts, m.Text)
	}
	for _, text := range want.texts {
		if !slices.Contains(texts, text) {
			t.Errorf("door %d: room %s holds %q, want %q among them", i, movedRoom, texts, text)
		}
	}
	if r := do(t, "GET", s.url(i, want.url), nil).want(t, 200, "attachment"); string(r.body) != want.attachment {
		t.Errorf("door %d: attachment %q, want %q", i, r.body, want.attachment)
	}
}

// movedVideo is a multipart object put straight into the chat's bucket
// of the data directory: 13 MiB in parts of 6 MiB.
const movedVideo = "rooms/moved/video.bin"

// leaveMultipart uploads movedVideo into dir's chat-files bucket and
// returns its ETag.
func leaveMultipart(t *testing.T, dir string) string {
	t.Helper()
	ctx := context.Background()
	st, done := openStores(t, dir)
	defer done()
	b, _ := st.R2("chat-files")
	up, err := b.CreateMultipartUpload(ctx, movedVideo, &worker.R2MultipartOptions{HTTPMetadata: worker.R2HTTPMetadata{ContentType: "video/mp4"}})
	if err != nil {
		t.Fatal(err)
	}
	var parts []worker.R2UploadedPart
	for n, size := range []int{6 << 20, 6 << 20, 1 << 20} {
		part := make([]byte, size)
		rand.Read(part)
		p, err := up.UploadPart(ctx, n+1, bytes.NewReader(part))
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, p)
	}
	o, err := up.Complete(ctx, parts)
	if err != nil {
		t.Fatal(err)
	}
	return o.ETag
}

// tableRow matches a row of dwk migrate's table: the store's kind and
// name.
var tableRow = regexp.MustCompile(`│ (d1|kv|r2|do|queue)\s+│ (\S+)\s+│`)

// migratedList returns the stores a dwk migrate table lists.
func migratedList(out string) []migrate.Store {
	var stores []migrate.Store
	for _, m := range tableRow.FindAllStringSubmatch(out, -1) {
		stores = append(stores, migrate.Store{Kind: m[1], Name: m[2]})
	}
	return stores
}

// openStores opens the stores of dir, a data directory no dwk serve
// runs on; done closes them.
func openStores(t *testing.T, dir string) (st *storeset.Local, done func()) {
	t.Helper()
	st, err := storeset.OpenLocal(context.Background(), dir, storeset.LocalOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return st, func() { st.Close() }
}

// openSide opens a stopped data directory's stores as a migrate.Side.
func openSide(t *testing.T, dir string) migrate.Side {
	t.Helper()
	ctx := context.Background()
	st, done := openStores(t, dir)
	t.Cleanup(done)
	objs, err := migrate.OpenLocalObjects(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { objs.Close() })
	return migrate.Side{Stores: st, Objects: objs, Queues: st.Broker().(queue.Mover)}
}

// differing compares two stopped data directories entry by entry, with
// the digests dwk migrate verifies (a database's dump, a key's value,
// metadata and expiration, an object's body and metadata, a Durable
// Object's tables, storage and alarm, a queue's messages), both ways, and
// returns how many entries of each store differ or are on one side only.
// It also fails t when movedVideo's ETag is not etag in b.
func differing(t *testing.T, a, b string, stores []migrate.Store, etag string) map[string]int {
	t.Helper()
	ctx := context.Background()
	sa, sb := openSide(t, a), openSide(t, b)
	out := map[string]int{}
	for _, pair := range [][2]migrate.Side{{sa, sb}, {sb, sa}} {
		res, err := migrate.Run(ctx, pair[0], pair[1], stores, migrate.Options{DryRun: true, Replace: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res {
			if n := r.Entries - r.Skipped; n > 0 {
				out[r.Store.String()] += n
			}
		}
	}
	files, _ := sb.R2("chat-files")
	o, err := files.Head(ctx, movedVideo)
	switch {
	case errors.Is(err, worker.ErrNotFound):
		t.Errorf("%s is missing after the round trip", movedVideo)
	case err != nil:
		t.Fatal(err)
	case o.ETag != etag || !strings.HasSuffix(o.ETag, "-3"):
		t.Errorf("%s after the round trip: ETag %s, want the original multipart ETag %s", movedVideo, o.ETag, etag)
	}
	return out
}
