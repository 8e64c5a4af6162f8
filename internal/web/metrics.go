package web

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"solidarity"
)

// metrics are the server's Prometheus metrics, on a registry of its own (never the
// global one), so that two servers in one process — tests — do not collide.
type metrics struct {
	registry      *prometheus.Registry
	requests      *prometheus.CounterVec
	duration      *prometheus.HistogramVec
	appends       *prometheus.CounterVec
	loginFailures *prometheus.CounterVec
}

func newMetrics() *metrics {
	m := &metrics{
		registry: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "solidarity_http_requests_total",
			Help: "HTTP requests by route pattern and status code.",
		}, []string{"route", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "solidarity_http_request_duration_seconds",
			Help:    "Time to answer an HTTP request, by route pattern.",
			Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5},
		}, []string{"route"}),
		appends: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "solidarity_ledger_appends_total",
			Help: "Ledger entries written through this server, by entry type (replays not counted).",
		}, []string{"type"}),
		loginFailures: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "solidarity_login_failures_total",
			Help: "Refused logins: wrong user name or password, or refused by the rate limit.",
		}, []string{"reason"}),
	}
	m.registry.MustRegister(m.requests, m.duration, m.appends, m.loginFailures,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	// Every series exists from the start, so that a rate() over them is defined before
	// the first event.
	for _, t := range solidarity.EntryTypes() {
		m.appends.WithLabelValues(string(t))
	}
	for _, r := range []string{"password", "rate_limited"} {
		m.loginFailures.WithLabelValues(r)
	}
	return m
}

func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{Registry: m.registry})
}

func (m *metrics) observe(route string, status int, d time.Duration) {
	if route == "" {
		route = "unmatched"
	}
	m.requests.WithLabelValues(route, strconv.Itoa(status)).Inc()
	m.duration.WithLabelValues(route).Observe(d.Seconds())
}
