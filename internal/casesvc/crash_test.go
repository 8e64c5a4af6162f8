package casesvc_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"solidarity"
	"solidarity/cases"
	"solidarity/internal/app"
	"solidarity/internal/casesvc"
	"solidarity/internal/keyring"
	"solidarity/ledger"
)

// The crash test runs the case service in a child process (this test binary, in
// child mode) that registers landings and moves their cases from four goroutines,
// printing each write it was told succeeded; the parent kills it with SIGKILL at a
// random moment, reopens the database and checks that every acknowledged write is
// there, that the chain verifies, and that the case tables are exactly what the
// ledger's entries say: a crash mid-write leaves no case without its entry and no
// entry without its case.

const crashChildEnv = "SOLIDARITY_CASES_CRASH_CHILD"

func TestCrashChild(t *testing.T) {
	dsn := os.Getenv(crashChildEnv)
	if dsn == "" {
		t.Skip("child process of TestCrash")
	}
	svc := openCrash(t, dsn)
	ctx := solidarity.NewContextWithUser(context.Background(), solidarity.System)
	var mu sync.Mutex
	ack := func(format string, args ...any) {
		mu.Lock()
		fmt.Fprintf(os.Stdout, format+"\n", args...)
		mu.Unlock()
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(g), uint64(time.Now().UnixNano())))
			for i := 0; ; i++ {
				key := fmt.Sprintf("crash-%d-%d-%d", os.Getpid(), g, i)
				reg, err := svc.Register(ctx, benchList(r, 5+r.IntN(20), time.Now().UTC().Add(-time.Hour)), key)
				if err != nil {
					ack("ERR %v", err)
					return
				}
				ack("REG %s %d %d", reg.Arrival.ID, len(reg.Cases), reg.Entry.Seq)
				ids := make([]solidarity.CaseID, len(reg.Cases))
				for j, c := range reg.Cases {
					ids[j] = c.ID
				}
				for _, ev := range []cases.Event{cases.ScreeningStarted, cases.Applied, cases.Registration, cases.RegularTrack} {
					a, err := svc.Apply(ctx, casesvc.EventRequest{Case: ids[0], Also: ids[1:], Event: ev}, "")
					if err != nil {
						ack("ERR %v", err)
						return
					}
					ack("EV %d %s %s", a.Entry.Seq, ids[0], ev)
				}
			}
		})
	}
	wg.Wait()
}

func openCrash(t *testing.T, dsn string) *casesvc.Service {
	l, err := app.Service(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Store.Close() })
	k, err := keyring.Parse("crash", strings.NewReader(crashKey))
	if err != nil {
		t.Fatal(err)
	}
	svc, err := app.Cases(l, k)
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

// crashKey is fixed so that parent and child share it.
const crashKey = "1:MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY="

func TestCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("kills a child process")
	}
	stores(t, func(t *testing.T, dsn string) {
		for round := range 2 {
			crashOnce(t, dsn, round)
		}
	})
}

func crashOnce(t *testing.T, dsn string, round int) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashChildEnv+"="+dsn)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	type reg struct {
		cases int
		seq   int64
	}
	regs := map[solidarity.ArrivalID]reg{}
	events := map[int64]string{}
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	kill := time.After(time.Duration(400+rand.IntN(1200)) * time.Millisecond)
	acks := 0
loop:
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				break loop
			}
			f := strings.Fields(l)
			switch {
			case len(f) == 4 && f[0] == "REG":
				n, _ := strconv.Atoi(f[2])
				seq, _ := strconv.ParseInt(f[3], 10, 64)
				regs[solidarity.ArrivalID(f[1])] = reg{n, seq}
				acks++
			case len(f) == 4 && f[0] == "EV":
				seq, _ := strconv.ParseInt(f[1], 10, 64)
				events[seq] = f[3]
				acks++
			case len(f) > 0 && f[0] == "ERR":
				t.Errorf("child: %s", l)
			}
		case <-kill:
			cmd.Process.Signal(syscall.SIGKILL)
			kill = nil
		}
	}
	cmd.Wait()
	if acks == 0 {
		t.Fatalf("round %d: the child acknowledged nothing before it was killed", round)
	}

	svc := openCrash(t, dsn)
	ctx := solidarity.NewContextWithUser(context.Background(), solidarity.System)
	v, err := ledger.Verify(svc.Store.All(ctx), time.Now())
	if err != nil || !v.OK {
		t.Fatalf("round %d: chain after the crash: %+v %v", round, v, err)
	}
	// What the ledger says each case is, replayed in sequence order.
	want := map[solidarity.CaseID]cases.State{}
	seen := map[int64]bool{}
	for e, err := range svc.Store.All(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		seen[e.Seq] = true
		switch e.Type {
		case solidarity.ArrivalRegistered:
			var p solidarity.ArrivalPayload
			json.Unmarshal(e.Payload, &p)
			for _, f := range p.Families {
				for _, c := range f.Cases {
					want[c] = cases.ArrivedSAR
				}
			}
		case solidarity.CaseEvent:
			var p solidarity.CaseEventPayload
			json.Unmarshal(e.Payload, &p)
			for _, s := range p.Steps {
				if want[s.Case] != s.From {
					t.Errorf("entry %d moves %s from %s, but the ledger had it in %q", e.Seq, s.Case, s.From, want[s.Case])
				}
				want[s.Case] = s.To
			}
		}
	}
	for id, r := range regs {
		if !seen[r.seq] {
			t.Errorf("round %d: acknowledged registration %s (entry %d) lost", round, id, r.seq)
		}
		a, err := svc.Store.Arrival(ctx, id)
		if err != nil || a.Persons != r.cases {
			t.Errorf("round %d: acknowledged arrival %s: %v %v", round, id, a, err)
		}
	}
	for seq, ev := range events {
		if !seen[seq] {
			t.Errorf("round %d: acknowledged event %s (entry %d) lost", round, ev, seq)
		}
	}
	// The case tables hold exactly the ledger's cases, each in the ledger's state,
	// each person still readable.
	got := map[solidarity.CaseID]bool{}
	f := solidarity.CaseFilter{Limit: 10000}
	for {
		page, err := svc.Store.Cases(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range page {
			got[c.ID] = true
			if want[c.ID] != c.State {
				t.Errorf("round %d: case %s is %s in the table, %q in the ledger", round, c.ID, c.State, want[c.ID])
			}
		}
		if len(page) < f.Limit {
			break
		}
		f.After = page[len(page)-1].ID
	}
	for id := range want {
		if !got[id] {
			t.Errorf("round %d: case %s is in the ledger but not in the tables", round, id)
		}
	}
	for id := range got {
		if _, err := svc.Person(ctx, id, "crash-test"); err != nil {
			t.Errorf("round %d: case %s: %v", round, id, err)
			break
		}
	}
	t.Logf("round %d: %d acknowledged writes, %d cases, %d entries", round, acks, len(got), len(seen))
}
