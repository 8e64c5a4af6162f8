// Command loadtest measures the server under load: it starts `solidarity serve` on a
// fresh database (a SQLite file, or with -pg a PostgreSQL schema of its own, created
// for the run and dropped after it), creates the users and tokens it needs, runs
// -clients concurrent clients against 127.0.0.1 for -duration, and prints the results
// as Markdown table rows.
//
// Without -mix it measures ledger writes: every client posts deliveries (each with its
// own Idempotency-Key) for -duration, then one client reads the balances for -reads.
//
// With -mix it runs the mixed load of issue 12: 80 % reads (the public dashboard as
// HTML and JSON, the balances, a state's page, the case list of the API and the
// arrivals page as an officer) and 20 % durable writes (deliveries, pledges and case
// events, each with its client's own Idempotency-Key, answered after the commit); see
// mix.go.
//
//	go run ./cmd/loadtest -clients 50 -duration 10s
//	go run ./cmd/loadtest -mix -clients 50 -duration 30s
//	go run ./cmd/loadtest -mix -pg 'postgres://solidarity:solidarity@127.0.0.1:5432/solidarity_test?sslmode=disable'
package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"solidarity/internal/keyring"
	"solidarity/internal/pgtest"
)

func main() {
	bin := flag.String("bin", "", "solidarity binary (default: build it)")
	db := flag.String("db", "", "database (default: a fresh SQLite file); used as given, not cleaned up")
	pg := flag.String("pg", "", "PostgreSQL server `DSN`: run on a schema of its own there, dropped afterwards")
	clients := flag.Int("clients", 50, "concurrent clients")
	duration := flag.Duration("duration", 10*time.Second, "how long to load the server")
	reads := flag.Duration("reads", 3*time.Second, "without -mix: how long to read balances afterwards")
	mix := flag.Bool("mix", false, "the mixed load: 80 % reads, 20 % durable writes")
	think := flag.Duration("think", 0, "with -mix: each client waits this long between its requests (0: back to back, the server saturated)")
	maxReq := flag.Int("max", 2_000_000, "stop after this many requests in all, whatever -duration says")
	flag.Parse()
	if *clients < 1 || *clients > 1000 || *duration <= 0 || *duration > time.Hour || *maxReq < 1 {
		fmt.Fprintln(os.Stderr, "loadtest: -clients is 1–1000, -duration up to 1h, -max at least 1")
		os.Exit(2)
	}
	err := func() error {
		dsn, kind := *db, "PostgreSQL"
		if *pg != "" {
			schema, drop, err := pgSchema(*pg)
			if err != nil {
				return err
			}
			defer drop()
			dsn = schema
		} else if dsn == "" {
			kind = "SQLite"
		}
		srv, err := start(*bin, dsn)
		if err != nil {
			return err
		}
		defer srv.stop()
		if *mix {
			return runMix(srv, kind, *clients, *duration, *maxReq, *think)
		}
		return runLedger(srv, kind, *clients, *duration, *reads, *maxReq)
	}()
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(1)
	}
}

// pgSchema creates a schema of its own on the server and returns the DSN that selects
// it, and a function that drops it.
func pgSchema(dsn string) (string, func(), error) {
	ctx := context.Background()
	name := pgx.Identifier{"loadtest_" + strings.ToLower(rand.Text()[:10])}.Sanitize()
	// pgxpool's parameters (pool_max_conns, ...) are the server's: the admin connection
	// parses them away.
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return "", nil, fmt.Errorf("cannot parse the -pg connection string")
	}
	exec := func(sql string) error {
		conn, err := pgx.ConnectConfig(ctx, cfg.ConnConfig)
		if err != nil {
			return fmt.Errorf("connect to %s: %w", redact(dsn), err)
		}
		defer conn.Close(ctx)
		_, err = conn.Exec(ctx, sql)
		return err
	}
	if err := exec("CREATE SCHEMA " + name); err != nil {
		return "", nil, err
	}
	drop := func() {
		if err := exec("DROP SCHEMA " + name + " CASCADE"); err != nil {
			fmt.Fprintln(os.Stderr, "loadtest: dropping schema:", err)
		}
	}
	return pgtest.WithParams(dsn, "search_path", strings.Trim(name, `"`)), drop, nil
}

// redact drops the password of a URL DSN for messages.
func redact(dsn string) string {
	if i, j := strings.Index(dsn, "://"), strings.LastIndex(dsn, "@"); i >= 0 && j > i {
		return dsn[:i+3] + "…" + dsn[j:]
	}
	return "the PostgreSQL server"
}

// server is a running `solidarity serve` on a database of the load test's.
type server struct {
	bin, db, url string
	tmp          string
	cmd          *exec.Cmd
	logs         *bytes.Buffer
	client       *http.Client
}

// sh runs the binary on the server's database and returns its trimmed output.
func (s *server) sh(stdin string, args ...string) (string, error) {
	c := exec.Command(s.bin, args...)
	c.Stdin = strings.NewReader(stdin)
	out, err := c.CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

// user adds a user and returns a token of theirs.
func (s *server) user(name, role, state, password string) (string, error) {
	args := []string{"user", "add", "--db", s.db, "--name", name, "--role", role}
	if state != "" {
		args = append(args, "--state", state)
	}
	if password != "" {
		args = append(args, "--password-stdin")
	}
	if out, err := s.sh(password+"\n", args...); err != nil {
		return "", fmt.Errorf("user add %s: %s", name, out)
	}
	token, err := s.sh("", "token", "create", "--db", s.db, "--name", name)
	if err != nil {
		return "", fmt.Errorf("token create %s: %s", name, token)
	}
	return token, nil
}

// start builds the binary (unless given), prepares the database and starts the server
// on 127.0.0.1. The users are added before the server starts (the SQLite file is then
// the server's alone); start returns once the server answers.
func start(bin, db string) (*server, error) {
	tmp, err := os.MkdirTemp("", "loadtest-")
	if err != nil {
		return nil, err
	}
	s := &server{bin: bin, db: db, tmp: tmp, logs: &bytes.Buffer{}}
	if s.bin == "" {
		s.bin = filepath.Join(tmp, "solidarity")
		if out, err := exec.Command("go", "build", "-o", s.bin, "./cmd/solidarity").CombinedOutput(); err != nil {
			os.RemoveAll(tmp)
			return nil, fmt.Errorf("build: %v\n%s", err, out)
		}
	}
	if s.db == "" {
		s.db = filepath.Join(tmp, "load.db")
	}
	return s, nil
}

// serve starts the server; the users must exist by then.
func (s *server) serve(env ...string) error {
	addrFile := filepath.Join(s.tmp, "addr")
	s.cmd = exec.Command(s.bin, "serve", "--addr", "127.0.0.1:0", "--db", s.db, "--demo=false", "--log", "json")
	// The personal-data key: the load test registers invented persons only.
	s.cmd.Env = append(os.Environ(), append(env, "SOLIDARITY_ADDR_FILE="+addrFile, "SOLIDARITY_KEYS="+keyring.NewKey(1))...)
	s.cmd.Stdout, s.cmd.Stderr = s.logs, s.logs
	if err := s.cmd.Start(); err != nil {
		return err
	}
	for range 1500 {
		if b, err := os.ReadFile(addrFile); err == nil && len(b) > 0 {
			s.url = "http://" + string(b)
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if s.url == "" {
		return fmt.Errorf("server did not start: %s", s.logs.String())
	}
	return nil
}

func (s *server) stop() {
	if s.cmd != nil && s.cmd.Process != nil {
		s.cmd.Process.Kill()
		s.cmd.Wait()
	}
	os.RemoveAll(s.tmp)
}

// httpClient is a client for n concurrent users of one server.
func httpClient(n int) *http.Client {
	return &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: n, MaxConnsPerHost: n}, Timeout: 30 * time.Second}
}

// do sends a request and reads the answer whole; a status other than want (or any
// 2xx when want is 0) is an error naming it and the start of the body.
func do(c *http.Client, req *http.Request, want int) error {
	res, err := c.Do(req)
	if err != nil {
		return err
	}
	body, err := io.ReadAll(io.LimitReader(res.Body, 16<<20))
	res.Body.Close()
	if err != nil {
		return err
	}
	if (want != 0 && res.StatusCode != want) || (want == 0 && (res.StatusCode < 200 || res.StatusCode > 299)) {
		return fmt.Errorf("%s %s: status %s: %.200s", req.Method, req.URL.Path, res.Status, body)
	}
	return nil
}

// jsonRequest builds a request with a JSON body.
func jsonRequest(method, url string, body any) *http.Request {
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(method, url, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	return req
}

// runLedger is the load test of issue 3: durable deliveries, then balances reads.
func runLedger(s *server, kind string, clients int, duration, reads time.Duration, maxReq int) error {
	token, err := s.user("load", "coordinator", "", "")
	if err != nil {
		return err
	}
	if err := s.serve(); err != nil {
		return err
	}
	client := httpClient(clients)
	states := []string{"BE", "BG", "DE", "EE", "IE", "FR", "LV", "LT", "LU", "HU", "MT", "NL", "PT", "RO", "SI", "SK", "FI", "SE"}

	measure := func(clients int, d time.Duration, do func(c, i int) (bool, error)) ([]time.Duration, int, error) {
		var mu sync.Mutex
		var lat []time.Duration
		var failed, n int
		var firstErr error
		end := time.Now().Add(d)
		var wg sync.WaitGroup
		for c := range clients {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; time.Now().Before(end); i++ {
					mu.Lock()
					n++
					stop := n > maxReq
					mu.Unlock()
					if stop {
						return
					}
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
		req, _ := http.NewRequest("POST", fmt.Sprintf("%s/api/v1/ledger/cycles/2026/deliveries/%s", s.url, states[(c+i)%len(states)]), bytes.NewReader(body))
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
		res, err := client.Get(s.url + "/api/v1/ledger/cycles/2026/balances")
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

// pct is the p-th percentile of xs (nearest rank), "-" for none.
func pct(xs []time.Duration, p int) string {
	if len(xs) == 0 {
		return "-"
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return ms(rank(s, p))
}

// rank is the p-th percentile of the sorted s by nearest rank.
func rank(s []time.Duration, p int) time.Duration {
	i := (len(s)*p+99)/100 - 1
	return s[max(0, min(i, len(s)-1))]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
