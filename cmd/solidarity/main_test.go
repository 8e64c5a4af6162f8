package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"solidarity/internal/keyring"
	"solidarity/internal/pgtest"
	"solidarity/internal/sqlite"
)

// keyringLine is a key for tests that need one in $SOLIDARITY_KEYS.
var keyringLine = keyring.NewKey(1)

func run(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestHelpOnEveryCommand(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"pool", "--help"}, {"key", "--help"}, {"data", "--help"}, {"data", "import", "--help"}, {"cycles", "--help"}, {"serve", "--help"}, {"responsibility", "--help"}, {"ledger", "--help"}, {"pledge", "--help"}, {"cases", "--help"}, {"deadlines", "--help"}, {"arrival", "--help"}, {"keys", "--help"}} {
		code, out, _ := run(t, args...)
		if code != 0 || !strings.Contains(out, "Usage") {
			t.Errorf("%v: exit %d, output %.80q", args, code, out)
		}
	}
}

// The "done when": 26 states, shares summing to 1, relocations summing to
// 21 000 under each exact method, Denmark absent, four zero-obligation states.
func TestPool2026JSON(t *testing.T) {
	for _, m := range []string{"round-up", "largest-remainder", "webster"} {
		code, out, errs := run(t, "pool", "--cycle", "2026", "--format", "json", "--method", m)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", m, code, errs)
		}
		var p struct {
			States []struct {
				State      string
				Share      json.Number
				FairShare  int64 `json:"fair_share"`
				Obligation json.Number
			}
			Union struct {
				SharesSumExact string `json:"shares_sum_exact"`
			}
		}
		if err := json.Unmarshal([]byte(out), &p); err != nil {
			t.Fatal(err)
		}
		var fair int64
		var sum float64
		for _, s := range p.States {
			f, _ := s.Share.Float64()
			sum += f
			fair += s.FairShare
			if s.State == "DK" {
				t.Errorf("Denmark in the pool")
			}
			switch s.State {
			case "AT", "CZ", "HR", "PL":
				if s.Obligation != "0.00" {
					t.Errorf("%s obligation %s", s.State, s.Obligation)
				}
			}
		}
		if len(p.States) != 26 || p.Union.SharesSumExact != "1" || sum < 1-1e-9 || sum > 1+1e-9 {
			t.Errorf("%s: %d states, exact sum %s, decimal sum %v", m, len(p.States), p.Union.SharesSumExact, sum)
		}
		if m != "round-up" && fair != 21000 {
			t.Errorf("%s: relocations sum to %d", m, fair)
		}
	}
}

func TestBadInputExitsTwoNamingFileLineField(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "what-if.toml")
	os.WriteFile(bad, []byte("year = 2030\n[reference]\nrelocations = 100\neur = 2_000_000\n[[pledge]]\nstate = \"NO\"\ntype = \"financial\"\neur = 1\n"), 0o644)
	code, out, errs := run(t, "pool", "--cycle", bad)
	if code != 2 || out != "" || !strings.Contains(errs, "what-if.toml:6") || !strings.Contains(errs, "pledge[0].state") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	for _, args := range [][]string{
		{"pool", "--method", "dhondt"},
		{"pool", "--format", "xml"},
		{"pool", "--as-of", "soon"},
		{"pool", "--nope"},
		{"key", "--participating", "DE,XX"},
		{"key", "--key", "2015"},
		{"data", "import", filepath.Join(dir, "absent.csv")},
		{"frobnicate"},
	} {
		if code, _, errs := run(t, args...); code != 2 {
			t.Errorf("%v: exit %d (%s), want 2", args, code, errs)
		}
	}
}

func TestImportThenUse(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join("..", "..", "internal", "eurostat", "testdata", "nama_10_gdp.sdmx-csv")
	code, out, errs := run(t, "data", "import", "--partial", "--out", dir, src)
	if code != 0 || !strings.Contains(out, `"nama_10_gdp-2024"`) {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	// Only AT and DE have figures: a key over Part IV must refuse, naming a state.
	code, _, errs = run(t, "key", "--data-dir", dir, "--gdp", "nama_10_gdp-2024")
	if code != 2 || !strings.Contains(errs, "no GDP figure for BE") {
		t.Errorf("exit %d: %s", code, errs)
	}
	// Over the two states it covers, it computes.
	code, out, errs = run(t, "key", "--data-dir", dir, "--gdp", "nama_10_gdp-2024", "--participating", "AT,DE", "--format", "csv")
	if code != 0 || strings.Count(out, "\n") != 3 {
		t.Errorf("exit %d: %s %s", code, out, errs)
	}
	// A broken file is refused with its line, and nothing is written.
	broken := filepath.Join(t.TempDir(), "broken.sdmx-csv")
	orig, _ := os.ReadFile(src)
	os.WriteFile(broken, bytes.Replace(orig, []byte("4328970.0"), []byte("43x"), 1), 0o644)
	out2 := t.TempDir()
	code, _, errs = run(t, "data", "import", "--out", out2, broken)
	entries, _ := os.ReadDir(out2)
	if code != 2 || !strings.Contains(errs, "broken.sdmx-csv:3") || len(entries) != 0 {
		t.Errorf("exit %d, %d files written: %s", code, len(entries), errs)
	}
}

func TestKey2015FromInputs(t *testing.T) {
	in := filepath.Join(t.TempDir(), "k.csv")
	os.WriteFile(in, []byte("state,population,gdp_meur,asylum_per_million,unemployment_rate\nDE,3,3,1,1\nFR,1,1,1,1\n"), 0o644)
	code, out, errs := run(t, "key", "--key", "2015", "--inputs", in, "--format", "csv")
	if code != 0 || !strings.Contains(out, "DE,Germany") || !strings.Contains(out, ",3/4\n") {
		t.Errorf("exit %d: %s %s", code, out, errs)
	}
}

func TestTableHasFootnotes(t *testing.T) {
	code, out, _ := run(t, "pool", "--cycle", "2026")
	if code != 0 || !strings.Contains(out, "IMF World Economic Outlook") || !strings.Contains(out, "unknown, not zero") {
		t.Errorf("exit %d: footnotes missing from\n%s", code, out)
	}
	code, out, _ = run(t, "cycles")
	if code != 0 || !strings.Contains(out, "illustrative") || !strings.Contains(out, "2026") {
		t.Errorf("cycles: %d %s", code, out)
	}
}

// serve starts on embedded defaults (the README's main command), answers the probe
// and the dashboard, shows the Diciotti demo to the coordinator whose password it
// printed, and stops cleanly when its context ends.
func TestServe(t *testing.T) {
	addrFile := filepath.Join(t.TempDir(), "addr")
	t.Setenv("SOLIDARITY_ADDR_FILE", addrFile)
	t.Setenv("SOLIDARITY_KEYS_FILE", "")
	t.Setenv("SOLIDARITY_KEYS", "")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int)
	var out syncBuffer
	go func() {
		var errb bytes.Buffer
		done <- Run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--log", "json", "--db", filepath.Join(t.TempDir(), "s.db")}, &out, &errb)
	}()
	var addr string
	for range 3000 { // seeding the demo takes a moment, longer on a loaded machine
		if b, err := os.ReadFile(addrFile); err == nil && len(b) > 0 {
			addr = string(b)
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if addr == "" {
		t.Fatal("server did not start")
	}
	for path, want := range map[string]int{"/healthz": 200, "/pool/2026": 200, "/openapi.yaml": 200} {
		res, err := http.Get("http://" + addr + path)
		if err != nil || res.StatusCode != want {
			t.Errorf("%s: %v %v", path, err, res)
		}
		if res != nil {
			res.Body.Close()
		}
	}
	// The coordinator logs in with the printed password and sees the Diciotti.
	m := regexp.MustCompile(`coordinator\s+coordinator\s+password (\S+)`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("no coordinator password printed:\n%s", out.String())
	}
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	res, err := c.PostForm("http://"+addr+"/login", url.Values{"name": {"coordinator"}, "password": {m[1]}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	res, err = c.Get("http://" + addr + "/arrivals")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(page), "Ubaldo Diciotti") || !strings.Contains(string(page), "Catania") {
		t.Errorf("/arrivals as coordinator: %d, no Diciotti landing in\n%.2000s", res.StatusCode, page)
	}
	cancel()
	if code := <-done; code != 0 {
		t.Errorf("serve exited %d", code)
	}
}

// The CLI drives a remote server with a token exactly as it drives a local database.
func TestRemoteCLI(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "r.db")
	addrFile := filepath.Join(dir, "addr")
	t.Setenv("SOLIDARITY_ADDR_FILE", addrFile)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int)
	go func() {
		var out, errb bytes.Buffer
		done <- Run(ctx, []string{"serve", "--addr", "127.0.0.1:0", "--db", db, "--demo=false"}, &out, &errb)
	}()
	defer func() { cancel(); <-done }()
	var addr string
	for range 3000 { // a loaded CI machine can take a while to start it
		if b, err := os.ReadFile(addrFile); err == nil && len(b) > 0 {
			addr = string(b)
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if addr == "" {
		t.Fatal("server did not start")
	}
	server := "http://" + addr
	if code, _, errs := run(t, "user", "add", "--db", db, "--name", "off-de", "--role", "officer", "--state", "DE"); code != 0 {
		t.Fatal(errs)
	}
	_, tok, _ := run(t, "token", "create", "--db", db, "--name", "off-de")
	tok = strings.TrimSpace(tok)
	code, out, errs := run(t, "pledge", "add", "--server", server, "--token", tok, "--cycle", "2026", "--state", "DE",
		"--type", "relocation-applicants", "--relocations", "300", "--key", "r1")
	if code != 0 || !strings.Contains(out, "pledge.made DE") {
		t.Fatalf("remote pledge: %d %s %s", code, out, errs)
	}
	code, out, _ = run(t, "pledge", "add", "--server", server, "--token", tok, "--cycle", "2026", "--state", "DE",
		"--type", "relocation-applicants", "--relocations", "300", "--key", "r1")
	if code != 0 || !strings.Contains(out, "already recorded") {
		t.Fatalf("remote retry: %d %s", code, out)
	}
	// The officer of DE may not pledge for FR: the server's 403 is exit code 2.
	code, _, errs = run(t, "pledge", "add", "--server", server, "--token", tok, "--cycle", "2026", "--state", "FR", "--type", "financial", "--eur", "1")
	if code != 2 || !strings.Contains(errs, "not allowed") {
		t.Fatalf("remote pledge for another state: %d %s", code, errs)
	}
	code, out, errs = run(t, "balances", "--server", server, "--cycle", "2026", "--format", "json")
	if code != 0 || !strings.Contains(out, `"relocation_applicants": 300`) {
		t.Fatalf("remote balances: %d %.300s %s", code, out, errs)
	}
	// A bad token is refused.
	if code, _, _ := run(t, "balances", "--server", server, "--token", "nope", "--cycle", "2026"); code != 2 {
		t.Fatalf("bad token: exit %d", code)
	}
}

func TestResponsibility(t *testing.T) {
	code, out, errs := run(t, "responsibility", filepath.Join("..", "..", "rules", "testdata", "sar-italy.json"))
	if code != 0 || !strings.Contains(out, "IT") || !strings.Contains(out, "33") {
		t.Fatalf("exit %d: %s %s", code, out, errs)
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte(`{"application":{"state":"IT","date":"2026-08-23T00:00:00Z"},"shoe":1}`), 0o644)
	if code, _, errs := run(t, "responsibility", bad); code != 2 || !strings.Contains(errs, "bad.json") || !strings.Contains(errs, "shoe") {
		t.Fatalf("bad input: exit %d %s", code, errs)
	}
}

// syncBuffer is a bytes.Buffer safe for one writer and one reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// No command that only reads, nor one that writes to an existing ledger, creates a
// database: against a missing path each exits 2 naming the path (ENOTFOUND) and leaves
// no file behind; against a 0-byte file each, serve included, is refused and leaves
// the file empty.
func TestCommandsOpenNoMissingDatabase(t *testing.T) {
	t.Setenv("SOLIDARITY_KEYS_FILE", "")
	t.Setenv("SOLIDARITY_KEYS", "")
	t.Setenv("SOLIDARITY_DB", "")
	t.Setenv("SOLIDARITY_SERVER", "")
	for _, args := range [][]string{
		{"ledger", "verify"},
		{"ledger", "export"},
		{"balances", "--cycle", "2026"},
		{"user", "list"},
		{"cases"},
		{"case", "C-1"},
		{"deadlines"},
		// Writes to an existing ledger.
		{"token", "create", "--name", "maria"},
		{"pledge", "add", "--cycle", "2026", "--state", "DE", "--type", "financial", "--eur", "1"},
		{"deliver", "--cycle", "2026", "--state", "DE", "--type", "relocation", "--relocations", "1"},
		{"status", "set", "--cycle", "2026", "--state", "DE"},
		{"deduction", "request", "--cycle", "2026", "--state", "AT", "--article", "62", "--full"},
		{"offset", "reply", "--cycle", "2026", "--ref", "x", "--accepted", "1"},
		{"case", "C-1", "--person"},
		{"event", "C-1", "screening-started"},
		{"allocate", "C-1", "DE"},
		{"deadlines", "--apply"},
		{"erase"},
		{"keys", "reseal"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			dir := t.TempDir()
			db := filepath.Join(dir, "typo.db")
			code, out, errs := run(t, append(args, "--db", db)...)
			if code != 2 || !strings.Contains(errs, db) || strings.Contains(out, "OK") {
				t.Errorf("missing database: exit %d, stdout %q, stderr %q", code, out, errs)
			}
			if ents, _ := os.ReadDir(dir); len(ents) != 0 {
				t.Errorf("left %d files behind: %v", len(ents), ents[0].Name())
			}
			empty := filepath.Join(dir, "empty.db")
			os.WriteFile(empty, nil, 0o600)
			code, _, errs = run(t, append(args, "--db", empty)...)
			if fi, err := os.Stat(empty); code != 2 || err != nil || fi.Size() != 0 || !strings.Contains(errs, "0 bytes") {
				t.Errorf("empty database: exit %d, %q; file %v %v", code, errs, fi, err)
			}
		})
	}
	empty := filepath.Join(t.TempDir(), "empty.db")
	os.WriteFile(empty, nil, 0o600)
	code, out, errs := run(t, "serve", "--addr", "127.0.0.1:0", "--db", empty)
	if fi, _ := os.Stat(empty); code != 2 || fi.Size() != 0 || strings.Contains(out, "password") {
		t.Errorf("serve on an empty database: exit %d, %q %q, size %d", code, out, errs, fi.Size())
	}
}

// The files that hold the ledger are the owner's only: the database, its -wal and
// -shm, the key file beside it and a ledger export.
func TestFilesOwnerOnly(t *testing.T) {
	t.Setenv("SOLIDARITY_KEYS_FILE", "")
	t.Setenv("SOLIDARITY_KEYS", "")
	if runtime.GOOS == "windows" {
		t.Skip("file modes are POSIX")
	}
	old := syscallUmask(0o022)
	defer syscallUmask(old)
	dir := t.TempDir()
	db := filepath.Join(dir, "o.db")
	if code, _, errs := run(t, "arrival", "import", "../../arrival/testdata/ship.csv", "--db", db, "--key", "k1"); code != 0 {
		t.Fatal(errs)
	}
	export := filepath.Join(dir, "ledger.jsonl")
	if code, _, errs := run(t, "ledger", "export", "--db", db, "--out", export); code != 0 {
		t.Fatal(errs)
	}
	// The -wal and -shm exist while a store has the database open (SQLite removes them
	// at the last close, and a read-only command creates none).
	st, err := sqlite.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.Users(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{db, db + "-wal", db + "-shm", db + ".keys", export} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(p), err)
			continue
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, want 0600", filepath.Base(p), fi.Mode().Perm())
		}
	}
}

// serve on a busy port fails before it creates or seeds anything: exit 2, "address in
// use: pass --addr", no database, no password printed.
func TestServeBusyPort(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	dir := t.TempDir()
	t.Setenv("SOLIDARITY_KEYS_FILE", "")
	t.Setenv("SOLIDARITY_KEYS", "")
	code, out, errs := run(t, "serve", "--addr", ln.Addr().String(), "--db", filepath.Join(dir, "b.db"))
	if code != 2 || !strings.Contains(errs, "address in use: pass --addr") || strings.Contains(out, "password") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("a failed start left %s behind", ents[0].Name())
	}
}

// startServe runs serve in this process with args and returns its address and
// standard output; the server stops at the end of the test.
func startServe(t *testing.T, args ...string) (string, *syncBuffer) {
	t.Helper()
	addr, out, _ := startServeLogs(t, args...)
	return addr, out
}

// startServeLogs is startServe that also returns the server's standard error, its log.
func startServeLogs(t *testing.T, args ...string) (addr string, out, errb *syncBuffer) {
	t.Helper()
	addrFile := filepath.Join(t.TempDir(), "addr")
	t.Setenv("SOLIDARITY_ADDR_FILE", addrFile)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int)
	out, errb = new(syncBuffer), new(syncBuffer)
	go func() {
		done <- Run(ctx, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...), out, errb)
	}()
	t.Cleanup(func() {
		cancel()
		if code := <-done; code != 0 {
			t.Errorf("serve exited %d: %s", code, errb.String())
		}
	})
	for range 3000 { // seeding the demo takes a moment, longer on a loaded machine
		if b, err := os.ReadFile(addrFile); err == nil && len(b) > 0 {
			return string(b), out, errb
		}
		select {
		case code := <-done:
			done <- code
			t.Fatalf("serve exited %d: %s", code, errb.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
	t.Fatal("server did not start")
	return "", nil, nil
}

// getJSON GETs url with a bearer token and decodes the answer into out (if not nil),
// returning the status.
func getJSON(t *testing.T, url, token string, out any) int {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if out != nil && res.StatusCode == 200 {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s: %v", url, err)
		}
	}
	if res.StatusCode != 200 {
		t.Logf("%s: %d %s", url, res.StatusCode, b)
	}
	return res.StatusCode
}

// A key rotation on a running server: after 'keys new >> DB.keys' and 'keys reseal'
// the server reads personal records (200) without a restart.
func TestServeFollowsKeyRotation(t *testing.T) {
	t.Setenv("SOLIDARITY_KEYS_FILE", "")
	t.Setenv("SOLIDARITY_KEYS", "")
	db := filepath.Join(t.TempDir(), "k.db")
	addr, _ := startServe(t, "--db", db)
	_, tok, errs := run(t, "token", "create", "--db", db, "--name", "coordinator")
	tok = strings.TrimSpace(tok)
	if tok == "" {
		t.Fatal(errs)
	}
	var page struct{ Cases []struct{ ID string } }
	if getJSON(t, "http://"+addr+"/api/v1/cases?limit=3", tok, &page) != 200 || len(page.Cases) == 0 {
		t.Fatalf("no cases: %v", page)
	}
	cs := page.Cases
	person := "http://" + addr + "/api/v1/cases/" + cs[0].ID + "/person?purpose=test"
	if code := getJSON(t, person, tok, nil); code != 200 {
		t.Fatalf("person before the rotation: %d", code)
	}
	_, key, _ := run(t, "keys", "new", "--id", "2")
	f, err := os.OpenFile(db+".keys", os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(key)
	f.Close()
	if code, out, errs := run(t, "keys", "reseal", "--db", db); code != 0 {
		t.Fatalf("reseal: %d %s %s", code, out, errs)
	}
	for _, c := range cs {
		if code := getJSON(t, "http://"+addr+"/api/v1/cases/"+c.ID+"/person?purpose=test", tok, nil); code != 200 {
			t.Errorf("person %s after the rotation: %d, want 200", c.ID, code)
		}
	}
}

// The demonstration lives in its own cycle: after a first start (which seeds it), the
// real 2026 cycle's figures from the web JSON and from 'solidarity pool --cycle 2026'
// are equal and hold no demonstration pledge or delivery, and every page and JSON that
// shows the demonstration says so.
func TestServeDemoInItsOwnCycle(t *testing.T) {
	t.Setenv("SOLIDARITY_KEYS_FILE", "")
	t.Setenv("SOLIDARITY_KEYS", "")
	db := filepath.Join(t.TempDir(), "d.db")
	addr, out := startServe(t, "--db", db)
	base := "http://" + addr

	type poolJSON struct {
		Cycle struct {
			Year          int
			Demonstration bool
		}
		States json.RawMessage
		Union  json.RawMessage
	}
	var web struct {
		Pool      poolJSON
		Delivered struct{ Relocations int64 } `json:"delivered_total"`
	}
	if getJSON(t, base+"/api/v1/ledger/cycles/2026/balances", "", &web) != 200 {
		t.Fatal("no 2026 balances")
	}
	code, cli, errs := run(t, "pool", "--cycle", "2026", "--format", "json")
	if code != 0 {
		t.Fatal(errs)
	}
	var p poolJSON
	if err := json.Unmarshal([]byte(cli), &p); err != nil {
		t.Fatal(err)
	}
	if !jsonEqual(t, web.Pool.States, p.States) || !jsonEqual(t, web.Pool.Union, p.Union) {
		t.Errorf("the web's 2026 figures differ from the CLI's:\nweb union %s\ncli union %s", web.Pool.Union, p.Union)
	}
	if web.Pool.Cycle.Demonstration || web.Delivered.Relocations != 0 {
		t.Errorf("the real 2026 cycle: demonstration %v, %d relocations delivered", web.Pool.Cycle.Demonstration, web.Delivered.Relocations)
	}

	// The demonstration's cycle, labelled in JSON and on its pages.
	var demo struct {
		Pool      poolJSON
		Delivered struct{ Relocations int64 } `json:"delivered_total"`
	}
	if getJSON(t, base+"/api/v1/ledger/cycles/9026/balances", "", &demo) != 200 {
		t.Fatal("no demonstration cycle")
	}
	if !demo.Pool.Cycle.Demonstration || demo.Delivered.Relocations == 0 {
		t.Errorf("demonstration cycle: demonstration %v, %d relocations delivered", demo.Pool.Cycle.Demonstration, demo.Delivered.Relocations)
	}
	page := func(c *http.Client, path string) string {
		res, err := c.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode != 200 {
			t.Errorf("%s: %d", path, res.StatusCode)
		}
		return string(b)
	}
	for _, path := range []string{"/pool/9026", "/pool/9026/states/DE"} {
		if p := page(http.DefaultClient, path); !strings.Contains(p, `id="demonstration"`) {
			t.Errorf("%s has no demonstration label", path)
		}
	}
	if p := page(http.DefaultClient, "/pool/2026"); strings.Contains(p, `id="demonstration"`) || !strings.Contains(p, "9026 (demonstration)") {
		t.Errorf("/pool/2026: a demonstration label on the real cycle, or no labelled link to the demonstration")
	}
	m := regexp.MustCompile(`coordinator\s+coordinator\s+password (\S+)`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("no coordinator password printed:\n%s", out.String())
	}
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	res, err := c.PostForm(base+"/login", url.Values{"name": {"coordinator"}, "password": {m[1]}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	for _, path := range []string{"/arrivals", "/deadlines", "/ledger"} {
		if p := page(c, path); !strings.Contains(p, `id="demonstration"`) {
			t.Errorf("%s has no demonstration label", path)
		}
	}
	_, tok, _ := run(t, "token", "create", "--db", db, "--name", "coordinator")
	var list struct {
		Arrivals []struct {
			ID            string
			Cycle         int
			Demonstration bool
		}
	}
	if getJSON(t, base+"/api/v1/arrivals", strings.TrimSpace(tok), &list) != 200 || len(list.Arrivals) == 0 {
		t.Fatal("no arrival listed")
	}
	for _, a := range list.Arrivals {
		if !a.Demonstration || a.Cycle != 9026 {
			t.Errorf("arrival %s: demonstration %v, cycle %d", a.ID, a.Demonstration, a.Cycle)
		}
	}
	var cs struct {
		Cases []struct {
			ID            string
			Demonstration bool
		}
	}
	if getJSON(t, base+"/api/v1/cases?limit=5", strings.TrimSpace(tok), &cs) != 200 || len(cs.Cases) == 0 {
		t.Fatal("no case listed")
	}
	for _, c := range cs.Cases {
		var one struct{ Demonstration bool }
		getJSON(t, base+"/api/v1/cases/"+c.ID, strings.TrimSpace(tok), &one)
		if !c.Demonstration || !one.Demonstration {
			t.Errorf("case %s: demonstration %v in the list, %v alone", c.ID, c.Demonstration, one.Demonstration)
		}
	}
}

func jsonEqual(t *testing.T, a, b json.RawMessage) bool {
	t.Helper()
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}

// serve seeds the demonstration only on the first start of a new SQLite file or with
// --demo: not with --demo=false, not on a database that exists without one, and not on
// PostgreSQL unless asked.
func TestServeSeedsDemoOnlyWhenAsked(t *testing.T) {
	t.Setenv("SOLIDARITY_KEYS_FILE", "")
	t.Setenv("SOLIDARITY_KEYS", keyringLine)
	noDemo := func(t *testing.T, args ...string) {
		t.Helper()
		addr, out := startServe(t, args...)
		if strings.Contains(out.String(), "password") {
			t.Errorf("%v: demonstration users created:\n%s", args, out.String())
		}
		if code := getJSON(t, "http://"+addr+"/api/v1/ledger/cycles/9026/balances", "", nil); code != 404 {
			t.Errorf("%v: the demonstration cycle answers %d, want 404", args, code)
		}
	}
	t.Run("demo=false", func(t *testing.T) {
		noDemo(t, "--db", filepath.Join(t.TempDir(), "n.db"), "--demo=false")
	})
	t.Run("existing database", func(t *testing.T) {
		db := filepath.Join(t.TempDir(), "e.db")
		if code, _, errs := run(t, "user", "add", "--db", db, "--name", "maria", "--role", "coordinator"); code != 0 {
			t.Fatal(errs)
		}
		noDemo(t, "--db", db)
	})
	t.Run("postgres", func(t *testing.T) {
		if os.Getenv("SOLIDARITY_TEST_POSTGRES") == "" {
			t.Skip("SOLIDARITY_TEST_POSTGRES not set")
		}
		noDemo(t, "--db", pgtest.Schema(t))
	})
}
