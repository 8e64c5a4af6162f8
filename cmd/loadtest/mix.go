package main

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// A request kind of the mixed load: what one client sends, and how often.
type mixKind struct {
	name  string
	write bool
	// slots is how many of the schedule's 20 slots the kind takes: the reads 16 (80 %),
	// the writes 4 (20 %).
	slots int
	// do sends the client's i-th request of the kind and returns an error for any
	// answer but the one wanted (a 2xx; for a write, 201 Created: the entry committed).
	do func(cl *mixClient, i int) error
}

// mixClient is one of the concurrent users: its own session cookie, its own cases and
// its own Idempotency-Keys (load-<client>-<n>).
type mixClient struct {
	id       int
	env      *mixEnv
	session  *http.Cookie
	cases    []string // the cases only this client writes to
	detained []bool   // whether cases[j] is detained, after this client's events
	events   int      // case events this client has recorded
	writes   int      // writes this client has sent: the key counter
}

// mixEnv is what every client shares: the server, the tokens, the arrival.
type mixEnv struct {
	s       *server
	client  *http.Client
	coord   string // coordinator's token: deliveries and pledges for every state
	officer string // IT officer's token: the case list and the case events
	arrival string
}

// mixStates are the Member States the writes and the state pages go to.
var mixStates = []string{"BE", "BG", "DE", "EE", "IE", "FR", "LV", "LT", "LU", "HU", "MT", "NL", "PT", "RO", "SI", "SK", "FI", "SE"}

func (e *mixEnv) get(path, token string, cookie *http.Cookie) error {
	req, _ := http.NewRequest("GET", e.s.url+path, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if cookie != nil {
		req.AddCookie(cookie)
	}
	return do(e.client, req, http.StatusOK)
}

// post sends a durable write with the client's next Idempotency-Key; only 201 (the
// entry appended and committed) counts as success: a replay (200) would mean the
// keys collided.
func (cl *mixClient) post(path, token string, body any) error {
	req := jsonRequest("POST", cl.env.s.url+path, body)
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Idempotency-Key", fmt.Sprintf("load-%d-%d", cl.id, cl.writes))
	cl.writes++
	return do(cl.env.client, req, http.StatusCreated)
}

// mixKinds is the schedule of the mixed load, 20 slots in all.
var mixKinds = []mixKind{
	{name: "dashboard page `/pool/2026`", slots: 3, do: func(cl *mixClient, i int) error {
		return cl.env.get("/pool/2026", "", nil)
	}},
	{name: "dashboard JSON `/api/v1/cycles/2026/pool`", slots: 3, do: func(cl *mixClient, i int) error {
		return cl.env.get("/api/v1/cycles/2026/pool", "", nil)
	}},
	{name: "balances `/api/v1/ledger/cycles/2026/balances`", slots: 3, do: func(cl *mixClient, i int) error {
		return cl.env.get("/api/v1/ledger/cycles/2026/balances", "", nil)
	}},
	{name: "state page `/pool/2026/states/{state}`", slots: 3, do: func(cl *mixClient, i int) error {
		return cl.env.get("/pool/2026/states/"+mixStates[(cl.id+i)%len(mixStates)], "", nil)
	}},
	{name: "case list `/api/v1/cases` (officer token)", slots: 2, do: func(cl *mixClient, i int) error {
		return cl.env.get("/api/v1/cases?limit=100", cl.env.officer, nil)
	}},
	{name: "arrivals page `/arrivals` (officer session)", slots: 2, do: func(cl *mixClient, i int) error {
		return cl.env.get("/arrivals", "", cl.session)
	}},
	{name: "delivery (durable)", write: true, slots: 2, do: func(cl *mixClient, i int) error {
		return cl.post("/api/v1/ledger/cycles/2026/deliveries/"+mixStates[(cl.id+i)%len(mixStates)], cl.env.coord,
			map[string]any{"type": "relocation.delivered", "relocations": 1})
	}},
	{name: "pledge (durable)", write: true, slots: 1, do: func(cl *mixClient, i int) error {
		return cl.post("/api/v1/ledger/cycles/2026/pledges/"+mixStates[(cl.id+i)%len(mixStates)], cl.env.coord,
			map[string]any{"type": "relocation-applicants", "relocations": mixPledge + (cl.id+i)%400})
	}},
	{name: "case event (durable)", write: true, slots: 1, do: func(cl *mixClient, i int) error {
		// The client's own cases in turn, each detained and released alternately (Art.
		// 45 AMMR): a fact that changes the case's time limits, on any open case.
		j := cl.events % len(cl.cases)
		ev := "detained"
		if cl.detained[j] {
			ev = "released"
		}
		if err := cl.post("/api/v1/cases/"+cl.cases[j]+"/events", cl.env.officer, map[string]any{"event": ev}); err != nil {
			return err
		}
		cl.detained[j] = !cl.detained[j]
		cl.events++
		return nil
	}},
}

// mixPledge is the least relocation pledge of every state of mixStates: pledged before
// the run and never lowered below it, it leaves room for every delivery of a run, so
// that deliveries are checked against the pledges (no over_delivery flag) and accepted.
const mixPledge = 100_000

// casesPerClient is how many cases of the arrival each client writes events to.
const casesPerClient = 4

// runMix is the mixed load of issue 12.
func runMix(s *server, db string, clients int, duration time.Duration, maxReq int, think time.Duration) error {
	password := rand.Text()
	coord, err := s.user("load", "coordinator", "", "")
	if err != nil {
		return err
	}
	officer, err := s.user("load-it", "officer", "IT", password)
	if err != nil {
		return err
	}
	if err := s.serve(); err != nil {
		return err
	}
	e := &mixEnv{s: s, client: httpClient(clients), coord: coord, officer: officer}
	ids, err := e.register(clients * casesPerClient)
	if err != nil {
		return err
	}
	for i, m := range mixStates {
		req := jsonRequest("POST", s.url+"/api/v1/ledger/cycles/2026/pledges/"+m,
			map[string]any{"type": "relocation-applicants", "relocations": mixPledge})
		req.Header.Set("Authorization", "Bearer "+coord)
		req.Header.Set("Idempotency-Key", fmt.Sprintf("load-pledge-%d", i))
		if err := do(e.client, req, http.StatusCreated); err != nil {
			return fmt.Errorf("pledges before the run: %w", err)
		}
	}
	cls := make([]*mixClient, clients)
	for c := range cls {
		cl := &mixClient{id: c, env: e, cases: ids[c*casesPerClient : (c+1)*casesPerClient], detained: make([]bool, casesPerClient)}
		if cl.session, err = e.login("load-it", password); err != nil {
			return err
		}
		cls[c] = cl
	}
	// One request of each kind before the clock starts: a kind that cannot work at all
	// fails here, with its answer, rather than as a count of errors.
	for _, k := range mixKinds {
		if err := k.do(cls[0], 0); err != nil {
			return fmt.Errorf("%s before the run: %w", k.name, err)
		}
	}

	var schedule []int
	for k, kind := range mixKinds {
		for range kind.slots {
			schedule = append(schedule, k)
		}
	}
	// Interleave the slots so that each client's writes are spread over its cycle.
	schedule = spread(schedule)

	type result struct {
		lat      [][]time.Duration // per kind, every answered or failed request
		errs     []int
		firstErr []error
	}
	results := make([]result, clients)
	var sent atomic.Int64
	fmt.Fprintf(os.Stderr, "%s: %d clients for %s, %s between a client's requests…\n", db, clients, duration, think)
	cpu0, srv0 := cpuTime(syscall.RUSAGE_SELF), processCPU(s.cmd.Process.Pid)
	t0 := time.Now()
	end := t0.Add(duration)
	var wg sync.WaitGroup
	for c, cl := range cls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := result{lat: make([][]time.Duration, len(mixKinds)), errs: make([]int, len(mixKinds)), firstErr: make([]error, len(mixKinds))}
			// Clients start at different places of the schedule (7 is prime to 20).
			for i := 0; time.Now().Before(end) && sent.Add(1) <= int64(maxReq); i++ {
				k := schedule[(c*7+i)%len(schedule)]
				start := time.Now()
				err := mixKinds[k].do(cl, i)
				r.lat[k] = append(r.lat[k], time.Since(start))
				if err != nil {
					r.errs[k]++
					if r.firstErr[k] == nil {
						r.firstErr[k] = err
					}
				}
				if think > 0 {
					time.Sleep(think) // a client that reads what it got: an open load of clients/think at most
				}
			}
			results[c] = r
		}()
	}
	wg.Wait()
	elapsed := time.Since(t0)
	cpu, srvCPU := cpuTime(syscall.RUSAGE_SELF)-cpu0, processCPU(s.cmd.Process.Pid)-srv0

	row := func(name string, lat []time.Duration, errs, total int) {
		slices.Sort(lat)
		p50, p99, mx := "-", "-", "-"
		if len(lat) > 0 {
			p50, p99, mx = ms(rank(lat, 50)), ms(rank(lat, 99)), ms(lat[len(lat)-1])
		}
		fmt.Printf("| %s | %s | %.0f %% | %d | %.0f/s | %s | %s | %s | %d |\n", db, name,
			100*float64(len(lat))/float64(max(total, 1)), len(lat), float64(len(lat))/elapsed.Seconds(), p50, p99, mx, errs)
	}
	var all, reads, writes []time.Duration
	var allErrs, readErrs, writeErrs int
	perKind := make([][]time.Duration, len(mixKinds))
	kindErrs := make([]int, len(mixKinds))
	for k, kind := range mixKinds {
		var first error
		for _, r := range results {
			perKind[k] = append(perKind[k], r.lat[k]...)
			kindErrs[k] += r.errs[k]
			if first == nil {
				first = r.firstErr[k]
			}
		}
		if first != nil {
			fmt.Fprintf(os.Stderr, "%s %s: %d errors, the first: %v\n", db, kind.name, kindErrs[k], first)
		}
	}
	for k, kind := range mixKinds {
		all = append(all, perKind[k]...)
		allErrs += kindErrs[k]
		if kind.write {
			writes, writeErrs = append(writes, perKind[k]...), writeErrs+kindErrs[k]
		} else {
			reads, readErrs = append(reads, perKind[k]...), readErrs+kindErrs[k]
		}
	}
	for k, kind := range mixKinds {
		row(kind.name, perKind[k], kindErrs[k], len(all))
	}
	row("reads", reads, readErrs, len(all))
	row("durable writes", writes, writeErrs, len(all))
	label := fmt.Sprintf("**all: %d clients, %s**", clients, duration)
	if think > 0 {
		label = fmt.Sprintf("**all: %d clients, %s, %s between requests**", clients, duration, think)
	}
	row(label, all, allErrs, len(all))
	slices.Sort(all)
	met := len(all) > 0 && rank(all, 99) < 100*time.Millisecond && allErrs == 0
	fmt.Fprintf(os.Stderr, "%s: %d requests in %s, p99 %s, %d errors: target (p99 < 100 ms, 0 errors) met: %v\n",
		db, len(all), elapsed.Round(time.Millisecond), pct(all, 99), allErrs, met)
	fmt.Fprintf(os.Stderr, "%s: CPU per request: server %.2f ms, load generator %.2f ms (of %d cores)\n", db,
		float64(srvCPU.Microseconds())/1000/float64(max(len(all), 1)), float64(cpu.Microseconds())/1000/float64(max(len(all), 1)), runtime.NumCPU())
	return nil
}

// cpuTime is the user and system CPU time of this process (who = RUSAGE_SELF).
func cpuTime(who int) time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(who, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// processCPU is the user and system CPU time of process pid so far, from
// /proc/<pid>/stat (0 where there is no /proc).
func processCPU(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The fields after the command name, which is in parentheses: utime and stime are
	// the 12th and 13th of them, in clock ticks (100 a second on Linux).
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * 10 * time.Millisecond
}

// spread orders the schedule's slots so that the kinds are interleaved: the kind
// with the most slots left goes next, never the same twice in a row when another
// is left.
func spread(schedule []int) []int {
	left := map[int]int{}
	for _, k := range schedule {
		left[k]++
	}
	out := make([]int, 0, len(schedule))
	last := -1
	for len(out) < len(schedule) {
		best := -1
		for k := range mixKinds {
			if left[k] == 0 || (k == last && len(left) > 1) {
				continue
			}
			if best < 0 || left[k] > left[best] {
				best = k
			}
		}
		if best < 0 {
			best = last
		}
		out = append(out, best)
		if left[best]--; left[best] == 0 {
			delete(left, best)
		}
		last = best
	}
	return out
}

// register registers an arrival in Italy of n invented persons, each a family of one,
// as the IT officer, and returns its cases.
func (e *mixEnv) register(n int) ([]string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "# vessel: Load Test (fictional)\n# port: Lampedusa\n# at: %s\n# sar: true\n# benefitting_state: IT\n",
		time.Now().UTC().Add(-2*time.Hour).Truncate(time.Second).Format(time.RFC3339))
	b.WriteString("ref,name,birth_date,sex,nationality,languages\n")
	for i := range n {
		// Invented names of letters only: "Person Aab", "Person Aac", ...
		name := []byte{'A' + byte(i/676%26), 'a' + byte(i/26%26), 'a' + byte(i%26)}
		fmt.Fprintf(&b, "L%04d,Person %s,%s,%s,SY,ar\n", i, name,
			time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i).Format(time.DateOnly), "FM"[i%2:i%2+1])
	}
	req, _ := http.NewRequest("POST", e.s.url+"/api/v1/arrivals", strings.NewReader(b.String()))
	req.Header.Set("Content-Type", "text/csv")
	req.Header.Set("Authorization", "Bearer "+e.officer)
	req.Header.Set("Idempotency-Key", "load-arrival")
	res, err := e.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusCreated {
		return nil, fmt.Errorf("registering the arrival: status %s: %.300s", res.Status, body)
	}
	var reg struct {
		Arrival struct {
			ID string `json:"id"`
		} `json:"arrival"`
		Cases []string `json:"cases"`
	}
	if err := json.Unmarshal(body, &reg); err != nil {
		return nil, fmt.Errorf("registering the arrival: %w", err)
	}
	if len(reg.Cases) != n {
		return nil, fmt.Errorf("registering the arrival: %d cases, want %d", len(reg.Cases), n)
	}
	e.arrival = reg.Arrival.ID
	return reg.Cases, nil
}

// login opens a session and returns its cookie.
func (e *mixEnv) login(name, password string) (*http.Cookie, error) {
	res, err := e.client.Do(jsonRequest("POST", e.s.url+"/api/v1/session", map[string]string{"name": name, "password": password}))
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusCreated {
		return nil, fmt.Errorf("login: status %s: %.200s", res.Status, body)
	}
	for _, c := range res.Cookies() {
		if c.Value != "" {
			return c, nil
		}
	}
	return nil, fmt.Errorf("login: no session cookie")
}
