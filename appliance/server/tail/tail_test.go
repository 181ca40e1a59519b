package tail

import (
	"bytes"
	"context"
	"log/slog"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"
)

func TestFilter(t *testing.T) {
	r := httptest.NewRequest("POST", "http://x/cart?id=1", nil)
	ok := NewEvent("shop", "m1", r, 200, time.Now(), []Log{{Level: "log", Message: []string{"added tea"}}})
	bad := NewEvent("shop", "m1", r, 503, time.Now(), nil)
	for _, c := range []struct {
		q        string
		ok, fail bool
	}{
		{"", true, true},
		{"worker=shop", true, true},
		{"worker=other", false, false},
		{"status=ok", true, false},
		{"status=error", false, true},
		{"status=ok,error", true, true},
		{"method=get", false, false},
		{"method=post&method=get", true, true},
		{"search=tea", true, false},
		{"search=cart", true, true},
	} {
		q, _ := url.ParseQuery(c.q)
		f, err := ParseFilter(q)
		if err != nil {
			t.Fatalf("%s: %v", c.q, err)
		}
		if f.Match(&ok) != c.ok || f.Match(&bad) != c.fail {
			t.Errorf("%s: match ok=%v fail=%v, want %v %v", c.q, f.Match(&ok), f.Match(&bad), c.ok, c.fail)
		}
		if back, _ := ParseFilter(f.Query()); back.Match(&ok) != c.ok {
			t.Errorf("%s: the filter does not survive Query", c.q)
		}
	}
	for _, q := range []string{"status=crashed", "sampling_rate=0", "sampling_rate=2", "sampling_rate=x"} {
		v, _ := url.ParseQuery(q)
		if _, err := ParseFilter(v); err == nil {
			t.Errorf("%s: no error", q)
		}
	}
}

func TestHub(t *testing.T) {
	var h Hub
	if h.Active("shop") {
		t.Fatal("active with no subscriber")
	}
	r := httptest.NewRequest("GET", "http://x/", nil)
	all := h.Subscribe(Filter{Worker: "shop"})
	half := h.Subscribe(Filter{SamplingRate: 0.5})
	if !h.Active("shop") || !h.Active("other") {
		t.Fatal("Active: want shop (and other, through the unfiltered subscriber)")
	}
	const n = Buffer + 100
	for range n {
		h.Publish(NewEvent("shop", "m", r, 200, time.Now(), nil))
	}
	if got := len(all.C); got != Buffer || all.Dropped() != 100 {
		t.Errorf("a full subscriber: %d queued, %d dropped; want %d and 100", got, all.Dropped(), Buffer)
	}
	if got := len(half.C) + int(half.Dropped()); got < n/2-120 || got > n/2+120 {
		t.Errorf("sampling at 0.5 passed %d of %d", got, n)
	}
	all.Close()
	half.Close()
	if h.Active("shop") {
		t.Error("active after every subscriber closed")
	}
}

func TestHandlerGathersUnderACollector(t *testing.T) {
	var out bytes.Buffer
	log := slog.New(NewHandler(slog.NewTextHandler(&out, &slog.HandlerOptions{Level: slog.LevelWarn}))).With("worker", "shop")
	ctx, c := WithCollector(context.Background())
	log.InfoContext(ctx, "gathered, not printed")
	log.ErrorContext(ctx, "gathered and printed")
	log.Info("neither")
	logs := c.Logs()
	if len(logs) != 2 || logs[0].Level != "log" || logs[0].Message[0] != "gathered, not printed" || logs[1].Level != "error" {
		t.Errorf("gathered %+v", logs)
	}
	if s := out.String(); !bytes.Contains(out.Bytes(), []byte("gathered and printed")) || bytes.Contains(out.Bytes(), []byte("not printed")) || bytes.Contains(out.Bytes(), []byte("neither")) {
		t.Errorf("printed %q", s)
	}
}

func TestCollectorBounds(t *testing.T) {
	log := slog.New(NewHandler(slog.DiscardHandler))
	ctx, c := WithCollector(context.Background())
	log.ErrorContext(ctx, "failed", "err", "CPU time limit", "other", "x")
	for range MaxLogs + 5 {
		log.InfoContext(ctx, string(bytes.Repeat([]byte("a"), MaxLogBytes+10)))
	}
	logs := c.Logs()
	if len(logs) != MaxLogs+1 {
		t.Fatalf("%d lines, want %d and the note", len(logs), MaxLogs+1)
	}
	if m := logs[0].Message; len(m) != 2 || m[1] != "CPU time limit" {
		t.Errorf("the first line %q: want the message and its err", m)
	}
	if l := len(logs[1].Message[0]); l > MaxLogBytes+20 {
		t.Errorf("a long line kept %d bytes", l)
	}
	if last := logs[MaxLogs].Message[0]; last != "dwk tail: 6 more lines left out of this event" {
		t.Errorf("the note: %q", last)
	}
}
