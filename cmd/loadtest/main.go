// Command loadtest measures the ledger's write throughput and latency against a real
// server: it starts `solidarity serve` on a fresh database (SQLite, or PostgreSQL with
// -db), creates a coordinator token, then runs -clients concurrent clients posting
// deliveries (each with its own Idempotency-Key) for -duration, and prints writes per
// second and latency percentiles as a Markdown table row. Reads of the dashboard
// balances are measured the same way.
//
//	go run ./cmd/loadtest -clients 50 -duration 10s
//	go run ./cmd/loadtest -db postgres://postgres@127.0.0.1:5432/test?sslmode=disable
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"solidarity/internal/keyring"
)

func main() {
	bin := flag.String("bin", "", "solidarity binary (default: build it)")
	db := flag.String("db", "", "database (default: a fresh SQLite file)")
	clients := flag.Int("clients", 50, "concurrent clients")
	duration := flag.Duration("duration", 10*time.Second, "how long to write")
	reads := flag.Duration("reads", 3*time.Second, "how long to read balances afterwards")
	flag.Parse()
	if err := run(*bin, *db, *clients, *duration, *reads); err != nil {
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(1)
	}
}

func run(bin, db string, clients int, duration, reads time.Duration) error {
	tmp, err := os.MkdirTemp("", "loadtest-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if bin == "" {
		bin = filepath.Join(tmp, "solidarity")
		if out, err := exec.Command("go", "build", "-o", bin, "./cmd/solidarity").CombinedOutput(); err != nil {
			return fmt.Errorf("build: %v\n%s", err, out)
		}
	}
	kind := "PostgreSQL"
	if db == "" {
		db, kind = filepath.Join(tmp, "load.db"), "SQLite"
	}
	sh := func(args ...string) (string, error) {
		out, err := exec.Command(bin, args...).CombinedOutput()
		return strings.TrimSpace(string(out)), err
	}
	if out, err := sh("user", "add", "--db", db, "--name", "load", "--role", "coordinator"); err != nil {
		return fmt.Errorf("user add: %s", out)
	}
	token, err := sh("token", "create", "--db", db, "--name", "load")
	if err != nil {
		return fmt.Errorf("token: %s", token)
	}
	addrFile := filepath.Join(tmp, "addr")
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--db", db, "--demo=false", "--log", "json")
	// The personal-data key: the load test writes none, but a PostgreSQL server needs one.
	cmd.Env = append(os.Environ(), "SOLIDARITY_ADDR_FILE="+addrFile, "SOLIDARITY_KEYS="+keyring.NewKey(1))
	var logs bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		return err
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	var url string
	for range 1500 {
		if b, err := os.ReadFile(addrFile); err == nil && len(b) > 0 {
			url = "http://" + string(b)
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if url == "" {
		return fmt.Errorf("server did not start: %s", logs.String())
	}
	tr := &http.Transport{MaxIdleConnsPerHost: clients}
	client := &http.Client{Transport: tr, Timeout: 30 * time.Second}
	states := []string{"BE", "BG", "DE", "EE", "IE", "FR", "LV", "LT", "LU", "HU", "MT", "NL", "PT", "RO", "SI", "SK", "FI", "SE"}

	measure := func(clients int, d time.Duration, do func(c, i int) (bool, error)) ([]time.Duration, int, error) {
		var mu sync.Mutex
		var lat []time.Duration
		var failed int
		var firstErr error
		end := time.Now().Add(d)
		var wg sync.WaitGroup
		for c := range clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; time.Now().Before(end); i++ {
					t0 := time.Now()
					ok, err := do(c, i)
					el := time.Since(t0)
					mu.Lock()
					if ok {
						lat = append(lat, el)
					} else {
						failed++
						if firstErr == nil {
							firstErr = err
						}
					}
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		return lat, failed, firstErr
	}
	writeLat, wfailed, werr := measure(clients, duration, func(c, i int) (bool, error) {
		body, _ := json.Marshal(map[string]any{"type": "relocation.delivered", "relocations": 1, "over_delivery": true})
		req, _ := http.NewRequest("POST", fmt.Sprintf("%s/api/v1/ledger/cycles/2026/deliveries/%s", url, states[(c+i)%len(states)]), bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Idempotency-Key", fmt.Sprintf("load-%d-%d", c, i))
		res, err := client.Do(req)
		if err != nil {
			return false, err
		}
		res.Body.Close()
		return res.StatusCode == http.StatusCreated, fmt.Errorf("status %s", res.Status)
	})
	// Balances are read by one client at a time: the latency a user of the dashboard
	// sees over the ledger the writes just built.
	readLat, rfailed, rerr := measure(1, reads, func(c, i int) (bool, error) {
		res, err := client.Get(url + "/api/v1/ledger/cycles/2026/balances")
		if err != nil {
			return false, err
		}
		res.Body.Close()
		return res.StatusCode == http.StatusOK, fmt.Errorf("status %s", res.Status)
	})
	fmt.Printf("| %s | writes (deliveries, durable) | %d | %.0f/s | %s | %s | %s | %d |\n", kind, clients,
		float64(len(writeLat))/duration.Seconds(), pct(writeLat, 50), pct(writeLat, 99), pct(writeLat, 100), wfailed)
	fmt.Printf("| %s | balances reads (26 states, ledger of %d entries) | 1 | %.0f/s | %s | %s | %s | %d |\n", kind, len(writeLat)+2,
		float64(len(readLat))/reads.Seconds(), pct(readLat, 50), pct(readLat, 99), pct(readLat, 100), rfailed)
	if werr != nil && wfailed > 0 {
		fmt.Fprintln(os.Stderr, "first write failure:", werr)
	}
	if rerr != nil && rfailed > 0 {
		fmt.Fprintln(os.Stderr, "first read failure:", rerr)
	}
	return nil
}

func pct(xs []time.Duration, p int) string {
	if len(xs) == 0 {
		return "-"
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	i := (len(s)*p)/100 - 1
	i = max(0, min(i, len(s)-1))
	return fmt.Sprintf("%.1f ms", float64(s[i].Microseconds())/1000)
}
