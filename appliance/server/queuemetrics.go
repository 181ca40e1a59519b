package server

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dwk/fleet/appliance/bindings/queue"
	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/process/metrics"
)

// queueScrapeTimeout bounds the backlog query of one scrape, so a slow
// store never holds /metrics up.
const queueScrapeTimeout = 2 * time.Second

// queueCollector exports, at scrape time, what the queue broker stores:
// per queue the depth (dwk_queue_depth), the oldest message's age
// (dwk_queue_oldest_age_seconds) and, for a consumed queue with a
// dead-letter queue, the messages waiting there (dwk_queue_dead_letters).
// One Backlogs call answers them all. When it fails the scrape carries
// none of them, rather than stale numbers, and dwk_queue_scrape_errors_total
// counts the failure. In central mode every replica reads the same
// fleet-wide database, so every replica reports the same numbers.
type queueCollector struct {
	broker queue.Broker
	// queues are the configured queues, reported (as 0) even when empty.
	queues []string
	// deadLetter maps a consumed queue to its dead-letter queue.
	deadLetter       map[string]string
	depth, age, dead *prometheus.Desc
	errors           prometheus.Counter
}

// queueMetrics registers the queue collector for the queues cfg's
// workers send to, consume and dead-letter into.
func queueMetrics(m *metrics.Metrics, cfg *config.Config, b queue.Broker) {
	labels := prometheus.Labels{}
	if cfg.Fleet.Member != "" {
		labels["member"] = cfg.Fleet.Member
	}
	c := &queueCollector{
		broker: b,
		depth: prometheus.NewDesc("dwk_queue_depth",
			"Messages stored on the queue and not yet acked or dead-lettered: waiting, delayed and claimed.", []string{"queue"}, labels),
		age: prometheus.NewDesc("dwk_queue_oldest_age_seconds",
			"Age of the queue's oldest stored message, from its send time; 0 when the queue is empty.", []string{"queue"}, labels),
		dead: prometheus.NewDesc("dwk_queue_dead_letters",
			"Messages waiting in the dead-letter queue of a consumed queue.", []string{"queue", "dead_letter_queue"}, labels),
		errors: prometheus.NewCounter(prometheus.CounterOpts{
			Name:        "dwk_queue_scrape_errors_total",
			Help:        "Scrapes whose queue backlog query failed or timed out; those scrapes carry no dwk_queue_ gauges.",
			ConstLabels: labels,
		}),
	}
	c.queues, c.deadLetter = configuredQueues(cfg)
	m.Registry().MustRegister(c)
}

// Describe sends the descriptors of every metric the collector exports.
func (c *queueCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.depth
	ch <- c.age
	ch <- c.dead
	c.errors.Describe(ch)
}

// Collect reads every queue's backlog in one query.
func (c *queueCollector) Collect(ch chan<- prometheus.Metric) {
	defer c.errors.Collect(ch)
	ctx, cancel := context.WithTimeout(context.Background(), queueScrapeTimeout)
	defer cancel()
	bls, err := c.broker.Backlogs(ctx)
	if err != nil {
		c.errors.Inc()
		return
	}
	byQueue := map[string]queue.Backlog{}
	for _, bl := range bls {
		byQueue[bl.Queue] = bl
	}
	for _, q := range c.queues {
		if _, ok := byQueue[q]; !ok {
			byQueue[q] = queue.Backlog{Queue: q}
		}
	}
	for q, bl := range byQueue {
		ch <- prometheus.MustNewConstMetric(c.depth, prometheus.GaugeValue, float64(bl.Depth), q)
		ch <- prometheus.MustNewConstMetric(c.age, prometheus.GaugeValue, bl.OldestAge.Seconds(), q)
	}
	for q, dlq := range c.deadLetter {
		ch <- prometheus.MustNewConstMetric(c.dead, prometheus.GaugeValue, float64(byQueue[dlq].Depth), q, dlq)
	}
}

// configuredQueues are the queues cfg's workers send to, consume and
// dead-letter into, in config order, and the dead-letter queue of each
// consumed queue that has one.
func configuredQueues(cfg *config.Config) (queues []string, deadLetter map[string]string) {
	deadLetter = map[string]string{}
	seen := map[string]bool{}
	add := func(q string) {
		if q != "" && !seen[q] {
			seen[q] = true
			queues = append(queues, q)
		}
	}
	for _, w := range cfg.Workers {
		for _, q := range w.Bindings.Queues {
			add(q)
		}
		for _, qc := range w.Consumers {
			add(qc.Queue)
			add(qc.DeadLetterQueue)
			if qc.DeadLetterQueue != "" {
				deadLetter[qc.Queue] = qc.DeadLetterQueue
			}
		}
	}
	return queues, deadLetter
}
