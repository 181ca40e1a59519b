package server

import (
	"context"
	"io"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/bindings/queue"
	"github.com/dwk/fleet/appliance/bindings/queue/queuecentral"
	"github.com/dwk/fleet/appliance/bindings/queue/queuelocal"
	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
	"github.com/dwk/fleet/appliance/libsql/libsqladmin"
	"github.com/dwk/fleet/appliance/process/metrics"
	"github.com/dwk/fleet/appliance/worker"
	"github.com/dwk/fleet/test/libsqlserver"
)

// queueConfig is a worker that sends to "orders" and "audit", and consumes
// "orders" with the dead-letter queue "orders-dlq".
func queueConfig(member string) *config.Config {
	return &config.Config{
		Fleet: config.Fleet{Member: member},
		Workers: []config.Worker{{
			Name:      "shop",
			Bindings:  config.Bindings{Queues: map[string]string{"ORDERS": "orders", "AUDIT": "audit"}},
			Consumers: []config.Consumer{{Queue: "orders", DeadLetterQueue: "orders-dlq"}},
		}},
	}
}

func scrape(t *testing.T, m *metrics.Metrics) string {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	b, _ := io.ReadAll(rec.Body)
	return string(b)
}

// checkQueueMetrics sends to b and checks the scrape reports it.
func checkQueueMetrics(t *testing.T, b queue.Broker) *metrics.Metrics {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	send := func(q string, n int) {
		msgs := make([]worker.QueueMessage, n)
		for i := range msgs {
			msgs[i].Body = []byte("m")
		}
		if err := b.Send(ctx, q, msgs); err != nil {
			t.Fatal(err)
		}
	}
	send("orders", 3)
	send("orders-dlq", 1)
	send("stray", 2) // in the store but in no config: still reported
	m := metrics.New("m1")
	queueMetrics(m, queueConfig("m1"), b)
	body := scrape(t, m)
	for _, want := range []string{
		`dwk_queue_depth{member="m1",queue="orders"} 3`,
		`dwk_queue_depth{member="m1",queue="orders-dlq"} 1`,
		`dwk_queue_depth{member="m1",queue="audit"} 0`,
		`dwk_queue_depth{member="m1",queue="stray"} 2`,
		`dwk_queue_oldest_age_seconds{member="m1",queue="audit"} 0`,
		`dwk_queue_dead_letters{dead_letter_queue="orders-dlq",member="m1",queue="orders"} 1`,
		`dwk_queue_scrape_errors_total{member="m1"} 0`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
	if !strings.Contains(body, `dwk_queue_oldest_age_seconds{member="m1",queue="orders"} `) {
		t.Errorf("metrics lack the oldest age of orders")
	}
	return m
}

// checkNoQueueGauges checks a failed scrape carries no queue gauge and
// counts the failure.
func checkNoQueueGauges(t *testing.T, body string, errors int) {
	t.Helper()
	for _, name := range []string{"dwk_queue_depth{", "dwk_queue_oldest_age_seconds{", "dwk_queue_dead_letters{"} {
		if strings.Contains(body, name) {
			t.Errorf("a failed scrape still reports %s", name)
		}
	}
	if want := `dwk_queue_scrape_errors_total{member="m1"} ` + strconv.Itoa(errors); !strings.Contains(body, want) {
		t.Errorf("metrics lack %s", want)
	}
}

func TestQueueMetricsLocal(t *testing.T) {
	b, err := queuelocal.Open(context.Background(), filepath.Join(t.TempDir(), "queues.sqlite"), queuelocal.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := checkQueueMetrics(t, b)
	b.Close()
	checkNoQueueGauges(t, scrape(t, m), 1)
}

func TestQueueMetricsCentral(t *testing.T) {
	srv := libsqlserver.Start(t)
	admin, err := libsqladmin.New(libsqladmin.Config{URL: srv.AdminURL, AdminKey: srv.AdminKey})
	if err != nil {
		t.Fatal(err)
	}
	ns := libsqlserver.Namespace("queues")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := admin.Create(ctx, ns); err != nil {
		t.Fatal(err)
	}
	c, err := hranaclient.New(hranaclient.Config{URL: srv.URL, AuthToken: srv.AuthToken, Namespace: ns})
	if err != nil {
		t.Fatal(err)
	}
	b, err := queuecentral.Open(ctx, c, queuecentral.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := checkQueueMetrics(t, b)
	if srv.External {
		return
	}
	// A libSQL server that answers nothing costs a scrape at most
	// queueScrapeTimeout, and the scrape reports no queue numbers.
	srv.Pause()
	start := time.Now()
	body := scrape(t, m)
	if took := time.Since(start); took > queueScrapeTimeout+2*time.Second {
		t.Errorf("a scrape with libSQL frozen took %s, want about %s", took, queueScrapeTimeout)
	}
	checkNoQueueGauges(t, body, 1)
	srv.Resume()
	if body := scrape(t, m); !strings.Contains(body, `dwk_queue_depth{member="m1",queue="orders"} 3`) {
		t.Error("after libSQL came back the scrape lacks the depth of orders")
	}
}
