package wrangler

// Queue limits and defaults: Cloudflare's, which dwk serves by. (Miniflare
// defaults to smaller batches: 5 messages, 1 second, 2 retries.)
const (
	defaultMaxBatchSize    = 10
	defaultMaxBatchTimeout = 5
	defaultMaxRetries      = 3
	maxDelaySeconds        = 43200 // 12 hours
)

func readQueues(l *loader, o *obj, k string) {
	q := o.child(k)
	if q == nil {
		return
	}
	q.objects("producers", func(i int, e *obj) {
		p := QueueProducer{Binding: l.readBinding(e, "binding")}
		p.Queue = e.requiredStr("queue", "the name of the queue to send to")
		if d, ok := e.integer("delivery_delay", 0, maxDelaySeconds); ok {
			p.DeliveryDelay = d
			l.r.warnf(e.at("delivery_delay"), "deprecated by wrangler, which warns that it has no effect on Cloudflare; dwk applies it, as wrangler dev does")
		}
		e.ignore("remote", remoteWhy)
		l.p.Queues.Producers = append(l.p.Queues.Producers, p)
	})
	q.objects("consumers", func(i int, e *obj) {
		l.p.Queues.Consumers = append(l.p.Queues.Consumers, readConsumer(l, e))
		l.consumers = append(l.consumers, e.path)
	})
	q.done()
}

func readConsumer(l *loader, e *obj) QueueConsumer {
	c := QueueConsumer{
		MaxBatchSize:    defaultMaxBatchSize,
		MaxBatchTimeout: defaultMaxBatchTimeout,
		MaxRetries:      defaultMaxRetries,
	}
	c.Queue = e.requiredStr("queue", "the name of the queue to consume")
	if t, ok := e.str("type"); ok && t != "worker" {
		l.r.errorf(e.at("type"), "must be \"worker\" (wrangler configures no other consumer type here), got %q", t)
	}
	if n, ok := e.integer("max_batch_size", 1, 100); ok {
		c.MaxBatchSize = n
	}
	if n, ok := e.integer("max_batch_timeout", 0, 60); ok {
		c.MaxBatchTimeout = n
	}
	if n, ok := e.integer("max_retries", 0, 100); ok {
		c.MaxRetries = n
	}
	c.DeadLetterQueue = e.nonEmptyStr("dead_letter_queue")
	if v, ok := e.m["max_concurrency"]; ok && v == nil {
		e.get("max_concurrency") // JSON null: as many as needed
	} else if n, ok := e.integer("max_concurrency", 1, 250); ok {
		c.MaxConcurrency = n
	}
	if n, ok := e.integer("retry_delay", 0, maxDelaySeconds); ok {
		c.RetryDelay = n
	}
	e.ignore("visibility_timeout_ms", "it applies to pull consumers; dwk's consumers are workers")
	return c
}
