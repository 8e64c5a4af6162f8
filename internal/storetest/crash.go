package storetest

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"solidarity"
)

const (
	crashChildEnv = "STORETEST_CRASH_CHILD"
	crashDBEnv    = "STORETEST_CRASH_DB"
)

// Crash checks that every append a store acknowledged survives the writing process
// being killed (SIGKILL) in the middle of concurrent appends, and that nothing is
// half-written: the chain verifies and the totals are the sum of the entries.
//
// The test re-runs its own binary as the writer. newDB makes an empty database and
// returns what open needs to reach it (a path, a DSN); it is called in the parent
// only, and the child opens the same database.
func Crash(t *testing.T, newDB func() string, open func(t *testing.T, db string) solidarity.Store) {
	if os.Getenv(crashChildEnv) == "1" {
		crashChild(t, open(t, os.Getenv(crashDBEnv)))
		return
	}
	db := newDB()
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashChildEnv+"=1", crashDBEnv+"="+db)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Kill the writer after a random number of acknowledgements, then keep every
	// acknowledgement it had written before dying.
	killAt := 100 + int(time.Now().UnixNano()%300)
	acked := map[int64]string{}
	sc := bufio.NewScanner(out)
	killed := false
	for sc.Scan() {
		seq, ref, ok := strings.Cut(strings.TrimPrefix(sc.Text(), "ack "), " ")
		if !ok || !strings.HasPrefix(sc.Text(), "ack ") {
			continue
		}
		n, err := strconv.ParseInt(seq, 10, 64)
		if err != nil {
			t.Fatalf("child wrote %q", sc.Text())
		}
		acked[n] = ref
		if len(acked) >= killAt && !killed {
			if err := cmd.Process.Kill(); err != nil {
				t.Fatal(err)
			}
			killed = true
		}
	}
	werr := cmd.Wait()
	if !killed {
		t.Fatalf("the writer ended by itself after %d appends: %v", len(acked), werr)
	}
	t.Logf("killed the writer after %d acknowledged appends", len(acked))

	s := open(t, db)
	es := all(t, s)
	if len(es) < len(acked) {
		t.Fatalf("%d entries after the crash, but %d were acknowledged", len(es), len(acked))
	}
	for seq, ref := range acked {
		if seq < 1 || seq > int64(len(es)) || es[seq-1].Ref != ref {
			t.Fatalf("acknowledged entry %d (%s) is missing", seq, ref)
		}
	}
	mustVerify(t, s, int64(len(es)))
	checkCycleTotals(t, s, " after the crash")
	// The store goes on appending after the crash.
	e := mustAppend(t, s, "after-crash", delivery(t, cycle, "SE", solidarity.PaymentMade, 1, 0))
	if e.Seq != int64(len(es)+1) {
		t.Fatalf("append after the crash got seq %d, want %d", e.Seq, len(es)+1)
	}
}

// crashChild appends from several goroutines until it is killed, writing "ack seq ref"
// on stdout once each append has returned.
func crashChild(t *testing.T, s solidarity.Store) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // no orphan
	defer cancel()
	var mu sync.Mutex
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := 0; ctx.Err() == nil; i++ {
				e := delivery(t, cycle, states[(g+i)%len(states)], deliveryTypes[i%3], int64(i+1), i)
				e.Ref = fmt.Sprintf("w%d-%d", g, i)
				out, _, err := s.Append(ctx, e.Ref, e, nil)
				if errors.Is(err, context.DeadlineExceeded) {
					return
				}
				if err != nil {
					t.Errorf("append: %v", err)
					return
				}
				mu.Lock()
				fmt.Fprintf(os.Stdout, "ack %d %s\n", out.Seq, out.Ref)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
}
