package web

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestBudgetStopsWork: a handler that works until its context says stop is stopped by
// the budget (the client has its 503 first) and by the client going away.
func TestBudgetStopsWork(t *testing.T) {
	stopped := make(chan error, 1)
	started := make(chan struct{}, 2)
	work := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		started <- struct{}{}
		<-r.Context().Done() // a long computation that checks its context
		stopped <- r.Context().Err()
		w.WriteHeader(http.StatusOK) // too late: dropped
		io.WriteString(w, "written-too-late")
	})

	s := &Server{Logger: slog.New(slog.DiscardHandler), budget: 50 * time.Millisecond}
	ts := httptest.NewServer(s.withBudget(work))
	defer ts.Close()
	res, err := http.Get(ts.URL)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") != "5" || !strings.Contains(string(body), `"code": "unavailable"`) || strings.Contains(string(body), "written-too-late") {
		t.Errorf("%d %v %s, want 503 with Retry-After and code unavailable", res.StatusCode, res.Header, body)
	}
	if err := <-stopped; err != context.DeadlineExceeded {
		t.Errorf("handler stopped by %v, want the deadline", err)
	}

	// The client goes away long before the budget: the handler's context ends.
	s.budget = time.Hour
	ts2 := httptest.NewServer(s.withBudget(work))
	defer ts2.Close()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", ts2.URL, nil)
	<-started // of the first request
	go func() { <-started; cancel() }()
	if _, err := http.DefaultClient.Do(req); err == nil {
		t.Fatal("request not cancelled")
	}
	select {
	case err := <-stopped:
		if err != context.Canceled {
			t.Errorf("handler stopped by %v, want the client's cancellation", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the handler went on working after the client left")
	}
}

// TestBudgetHeadersRace: a handler still setting its headers when the budget runs out
// must not share a header map with the 503 being written (a concurrent map write
// would end the whole process). Run with -race.
func TestBudgetHeadersRace(t *testing.T) {
	busy := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for i := 0; r.Context().Err() == nil; i++ {
			w.Header().Set("X-Work", strconv.Itoa(i))
		}
		w.Header().Set("X-Late", "1")
		w.WriteHeader(http.StatusOK)
	})
	s := &Server{Logger: slog.New(slog.DiscardHandler), budget: 2 * time.Millisecond}
	ts := httptest.NewServer(s.withBudget(busy))
	defer ts.Close()
	for range 20 {
		res, err := http.Get(ts.URL)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("X-Work") != "" {
			t.Fatalf("%d %v, want 503 without the handler's headers", res.StatusCode, res.Header)
		}
	}
}
