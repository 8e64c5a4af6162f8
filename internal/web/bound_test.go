package web_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"solidarity"
	"solidarity/internal/catalog"
	"solidarity/internal/cyclefile"
	"solidarity/internal/web"
)

// TestBoundedBodies: bodies built to exhaust the server (issue 12) answer 400 with code
// invalid, naming the bound, before any parser spends on them: no more than a few MiB
// allocated for each (8000 nested inline tables took 48 s and 5.2 GB).
func TestBoundedBodies(t *testing.T) {
	srv := mustServer(t)
	for name, body := range map[string]string{
		"8000-deep inline tables": "x = " + strings.Repeat("{a=", 8000) + "1" + strings.Repeat("}", 8000),
		"300000-deep arrays":      "x = " + strings.Repeat("[", 300000) + strings.Repeat("]", 300000),
		"8000-part dotted key":    "x" + strings.Repeat(".a", 8000) + " = 1",
		"28000 tiny fractions": "year = 2026\n[reference]\nrelocations = 1\neur = 1\n" +
			strings.Repeat("[[deduction]]\nstate = \"AT\"\ndate = 2026-01-01\nact = \"x\"\nfraction = \"1e-1000000\"\n", 28000)[:1<<20-100],
	} {
		t.Run(name, func(t *testing.T) {
			var m0, m1 runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&m0)
			rec := httptest.NewRecorder()
			r := httptest.NewRequest("POST", "/api/v1/pool", strings.NewReader(body))
			r.Header.Set("Content-Type", "application/toml")
			srv.ServeHTTP(rec, r)
			runtime.ReadMemStats(&m1)
			if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), `"code": "invalid"`) || !strings.Contains(rec.Body.String(), "limit") {
				t.Fatalf("%d %.300s, want 400 invalid naming the limit", rec.Code, rec.Body.String())
			}
			if alloc := m1.TotalAlloc - m0.TotalAlloc; alloc > 16<<20 {
				t.Errorf("allocated %d MiB, want at most 16", alloc>>20)
			}
		})
	}
}

// TestBoundedJSONBodies: every JSON body goes through the one bounded decoder, and a
// deduction's fraction through the bounded exact-number parser.
func TestBoundedJSONBodies(t *testing.T) {
	f := newFixture(t, fixtureOpts{setup: true})
	head := headSeq(t, f)
	const y = "/api/v1/ledger/cycles/2027"
	for _, c := range []struct{ name, path, body, as, field string }{
		{"nested 9000 deep", y + "/pledges/DE", `{"type":"financial","eur_cents":1,"x":` + strings.Repeat("[", 9000) + strings.Repeat("]", 9000) + `}`, "coord", ""},
		{"number of 100 000 digits", y + "/pledges/DE", `{"type":"financial","eur_cents":1` + strings.Repeat("0", 100000) + `}`, "coord", ""},
		{"fraction 1e-1000000", y + "/deductions/DE", `{"article":"Art. 62","fraction":"1e-1000000"}`, "de", "fraction"},
		{"fraction of 30-digit denominator", y + "/deductions/DE", `{"article":"Art. 62","fraction":"1/` + strings.Repeat("3", 30) + `"}`, "de", "fraction"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, body := f.do(req{method: "POST", path: c.path, as: c.as, body: c.body})
			e := apiErr(t, body)
			if res.StatusCode != 400 || e.Code != solidarity.EINVALID || !strings.Contains(e.Message, "limit") || e.Field != c.field {
				t.Fatalf("%d %s, want 400 invalid naming the limit and field %q", res.StatusCode, body, c.field)
			}
		})
	}
	if headSeq(t, f) != head {
		t.Error("a refused request wrote an entry")
	}
}

// TestRequestBudget: a request still unanswered when its time budget runs out gets
// 503 with Retry-After and the error JSON, whatever its handler does afterwards.
func TestRequestBudget(t *testing.T) {
	srv, err := web.New(&catalog.Catalog{}, nil, 2026, web.WithRequestBudget(time.Nanosecond))
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{"/api/v1/cycles/2026/pool", "/pool/2026"} {
		res, body := get(t, srv, target)
		if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" ||
			!strings.Contains(body, `"code": "unavailable"`) || res.Header.Get("Content-Type") != "application/json" {
			t.Errorf("%s: %d %v %.200s, want 503 with Retry-After and code unavailable", target, res.StatusCode, res.Header, body)
		}
	}
	// Within the default budget the same requests answer.
	if res, body := get(t, mustServer(t), "/api/v1/cycles/2026/pool"); res.StatusCode != 200 {
		t.Errorf("default budget: %d %.200s", res.StatusCode, body)
	}
}

// TestPoolBudget: the most expensive cycle file the bounds accept (every state with its
// most deductions, of distinct 9-digit denominators, and pledges up to the value bound)
// is computed within issue 12's budget: 64 MiB and 1 s of CPU (the process's CPU time,
// which other load does not inflate; it measures about 0.1 s).
func TestPoolBudget(t *testing.T) {
	src, err := cyclefile.ShippedSource(2027)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.Write(src)
	k := 0
	for _, m := range solidarity.PartIV() {
		for range cyclefile.MaxDeductionsPerState {
			fmt.Fprintf(&b, "[[deduction]]\nstate = %q\ndate = 2027-01-01\nact = \"x\"\nfraction = \"1/%d\"\n", m, 999999999-2*k)
			k++
		}
	}
	for i := 0; b.Len() < 1<<20-200 && i < 1500; i++ {
		fmt.Fprintf(&b, "[[pledge]]\nstate = %q\ntype = \"financial\"\neur = %d\n", solidarity.PartIV()[i%26], 1+i)
	}
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	c0 := cpuTime()
	rec := httptest.NewRecorder()
	mustServer(t).ServeHTTP(rec, httptest.NewRequest("POST", "/api/v1/pool", strings.NewReader(b.String())))
	cpu := cpuTime() - c0
	runtime.ReadMemStats(&m1)
	if rec.Code != http.StatusOK {
		t.Fatalf("%d %.300s", rec.Code, rec.Body.String())
	}
	t.Logf("%d bytes: %d KiB allocated, %v CPU", b.Len(), (m1.TotalAlloc-m0.TotalAlloc)>>10, cpu)
	if a := m1.TotalAlloc - m0.TotalAlloc; a > 64<<20 || cpu > time.Second {
		t.Errorf("allocated %d MiB and %v of CPU, budget 64 MiB and 1 s", a>>20, cpu)
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
