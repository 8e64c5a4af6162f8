package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"solidarity"
	"solidarity/internal/app"
	"solidarity/internal/keyring"
	"solidarity/internal/pgtest"
	"solidarity/ledger"
)

// The crash test: the real binary serves a database, many clients write deliveries,
// the process is killed with SIGKILL at a random moment, and after a restart every
// write that was acknowledged is there (a retry with its idempotency key is a replay),
// the chain verifies, and the delivery totals equal the sum over the entries — nothing
// half-written. It runs on SQLite always and on PostgreSQL when a DSN is given.
func TestCrashSQLite(t *testing.T) {
	crashTest(t, filepath.Join(t.TempDir(), "crash.db"))
}

func TestCrashPostgres(t *testing.T) {
	crashTest(t, pgtest.Schema(t))
}

var binOnce sync.Once
var binPath string

func buildBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "solidarity-bin-")
		if err != nil {
			t.Fatal(err)
		}
		binPath = filepath.Join(dir, "solidarity")
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			t.Fatalf("go build: %v\n%s", err, out)
		}
	})
	return binPath
}

type server struct {
	cmd  *exec.Cmd
	url  string
	logs *bytes.Buffer
}

func startServer(t *testing.T, bin, dsn string) *server {
	t.Helper()
	addrFile := filepath.Join(t.TempDir(), "addr")
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--db", dsn, "--demo=false", "--log", "json")
	cmd.Env = append(os.Environ(), "SOLIDARITY_ADDR_FILE="+addrFile, "SOLIDARITY_KEYS="+keyring.NewKey(1))
	logs := &bytes.Buffer{}
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &server{cmd: cmd, logs: logs}
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(addrFile); err == nil && len(b) > 0 {
			s.url = "http://" + string(b)
			return s
		}
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Kill()
	t.Fatalf("server did not start: %s", logs)
	return nil
}

type write struct {
	key   string
	state solidarity.MemberState
	n     int64
}

func (w write) send(ctx context.Context, url, token string) (int, string, error) {
	body, _ := json.Marshal(map[string]any{"type": solidarity.RelocationDelivered, "relocations": w.n, "over_delivery": true})
	req, _ := http.NewRequestWithContext(ctx, "POST", fmt.Sprintf("%s/api/v1/ledger/cycles/2026/deliveries/%s", url, w.state), bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Idempotency-Key", w.key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer res.Body.Close()
	return res.StatusCode, res.Header.Get("Idempotency-Replayed"), nil
}

func crashTest(t *testing.T, dsn string) {
	if testing.Short() {
		t.Skip("crash test skipped in -short mode")
	}
	bin := buildBinary(t)
	ctx := context.Background()
	// Bootstrap through the CLI: the shipped cycles, a coordinator and its token.
	var out, errb bytes.Buffer
	if code := Run(ctx, []string{"user", "add", "--db", dsn, "--name", "crash", "--role", "coordinator"}, &out, &errb); code != 0 {
		t.Fatalf("user add: %s", errb.String())
	}
	out.Reset()
	if code := Run(ctx, []string{"token", "create", "--db", dsn, "--name", "crash"}, &out, &errb); code != 0 {
		t.Fatalf("token create: %s", errb.String())
	}
	token := strings.TrimSpace(out.String())

	srv := startServer(t, bin, dsn)
	states := solidarity.PartIV()
	var mu sync.Mutex
	var acked []write
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for c := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				w := write{key: fmt.Sprintf("crash-%d-%d", c, i), state: states[(c+i)%len(states)], n: int64(1 + (c+i)%7)}
				code, _, err := w.send(ctx, srv.url, token)
				if err != nil {
					return // the server is gone
				}
				if code == http.StatusCreated || code == http.StatusOK {
					mu.Lock()
					acked = append(acked, w)
					mu.Unlock()
				}
			}
		}()
	}
	time.Sleep(time.Duration(300+rand.IntN(700)) * time.Millisecond)
	srv.cmd.Process.Signal(syscall.SIGKILL)
	srv.cmd.Wait()
	close(stop)
	wg.Wait()
	if len(acked) < 10 {
		t.Fatalf("only %d writes acknowledged before the kill; logs:\n%s", len(acked), srv.logs)
	}
	t.Logf("%d writes acknowledged before SIGKILL", len(acked))

	// Restart: every acknowledged write is present — its retry is a replay.
	srv = startServer(t, bin, dsn)
	defer func() { srv.cmd.Process.Kill(); srv.cmd.Wait() }()
	for _, w := range acked {
		code, replayed, err := w.send(ctx, srv.url, token)
		if err != nil || code != http.StatusOK || replayed != "true" {
			t.Fatalf("acknowledged write %s: after restart %d replayed=%q err=%v", w.key, code, replayed, err)
		}
	}
	srv.cmd.Process.Kill()
	srv.cmd.Wait()

	// The chain verifies and the totals are the sum of the entries.
	st, err := app.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	v, err := ledger.Verify(st.All(ctx), time.Now())
	if err != nil || !v.OK {
		t.Fatalf("verify after crash: %+v %v", v, err)
	}
	want, err := ledger.Sum(st.All(ctx))
	if err != nil {
		t.Fatal(err)
	}
	got, err := st.Totals(ctx, 2026)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("totals for %d states, entries sum to %d states", len(got), len(want))
	}
	for _, g := range got {
		w := want[[2]string{"2026", string(g.State)}]
		if g.Delivered.Of(solidarity.RelocationDelivered) != w.Delivered.Of(solidarity.RelocationDelivered) {
			t.Fatalf("%s: totals %d, entries sum to %d", g.State, g.Delivered.Of(solidarity.RelocationDelivered), w.Delivered.Of(solidarity.RelocationDelivered))
		}
	}
	if code := Run(ctx, []string{"ledger", "verify", "--db", dsn}, &out, &errb); code != 0 {
		t.Fatalf("ledger verify: %s", errb.String())
	}
}
