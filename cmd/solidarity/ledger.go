package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"solidarity"
	"solidarity/internal/app"
	"solidarity/ledger"
)

const ledgerHelp = `Usage: solidarity ledger verify [target flags]
       solidarity ledger verify --file FILE
       solidarity ledger export [--out FILE] [target flags]

The solidarity ledger is append-only and hash-chained: each entry's SHA-256 covers the
entry and the previous entry's hash.

  verify   recompute the whole chain, and check the delivery totals the balances are
           read from against the entries; names the first entry (or the first cycle,
           state and delivery type of the totals) that does not match and exits 2;
           with --file, check a public download (GET /api/v1/ledger/public.jsonl,
           "-" for stdin) offline: recompute every published entry's hash, check
           every link, and name the first line that does not match
  export   write every entry as JSON lines (to stdout, or atomically to --out)

Target flags (every ledger command): --db (local SQLite file or postgres:// URL, default
$SOLIDARITY_DB or solidarity.db), or --server URL with --token (or $SOLIDARITY_SERVER,
$SOLIDARITY_TOKEN); on a local database --as USER acts as that user.
`

var runLedger = subcommands("ledger", ledgerHelp, map[string]command{
	"verify": runVerify,
	"export": runExport,
})

func runVerify(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var t target
	fs := newFlags("ledger verify", ledgerHelp, stdout, stderr)
	t.flags(fs)
	file := fs.String("file", "", "verify this public download `file` offline (\"-\" for stdin) instead of a ledger")
	if err := parse(fs, args, false); err != nil {
		return err
	}
	if *file != "" {
		return verifyFile(*file, os.Stdin, stdout)
	}
	l, uctx, done, err := t.ledger(ctx, app.ReadOnly)
	if err != nil {
		return err
	}
	defer done()
	v, err := l.Verify(uctx)
	if err != nil {
		return err
	}
	if err := verificationError(v); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "ledger OK: %d entries, head %s\n", v.Entries, v.Head)
	return nil
}

// verifyFile checks a public download offline (ledger.VerifyPublic): ECONFLICT naming
// the first bad line and its entry.
func verifyFile(path string, stdin io.Reader, stdout io.Writer) error {
	r := stdin
	if path != "-" {
		f, err := os.Open(path)
		if err != nil {
			return &solidarity.Error{Code: solidarity.EINVALID, File: path, Message: "cannot read the file"}
		}
		defer f.Close()
		r = f
	}
	v, err := ledger.VerifyPublic(r)
	if err != nil {
		return &solidarity.Error{Code: solidarity.EINVALID, File: path, Message: fmt.Sprintf("cannot read the file: %v", err)}
	}
	if !v.OK {
		return &solidarity.Error{Code: solidarity.ECONFLICT, File: path, Field: fmt.Sprintf("line %d", v.BadLine),
			Message: fmt.Sprintf("public ledger verification failed after %d good entries: line %d, entry %d: %s", v.Entries, v.BadLine, v.BadSeq, v.Problem)}
	}
	fmt.Fprintf(stdout, "public ledger OK: %d entries, %d recomputed, %d linked only (redacted, not recomputed), head %d %s\n",
		v.Entries, v.Recomputed, v.Linked, v.HeadSeq, v.Head)
	return nil
}

// verificationError is ECONFLICT naming the first entry, or the first totals, that
// failed verification; nil when the ledger verified.
func verificationError(v *ledger.Verification) error {
	if !v.OK && v.BadTotals != nil {
		b := v.BadTotals
		where := fmt.Sprintf("cycle %d, state %s, %s", b.Cycle, b.State, b.Type)
		if b.Day != "" {
			where = fmt.Sprintf("cycle %d, state %s, day %s, %s", b.Cycle, b.State, b.Day, b.Type)
		}
		return &solidarity.Error{Code: solidarity.ECONFLICT, Field: "totals",
			Message: fmt.Sprintf("ledger verification failed: the chain of %d entries is good, but the totals of %s: %s", v.Entries, where, v.Problem)}
	}
	if !v.OK {
		return &solidarity.Error{Code: solidarity.ECONFLICT, Field: fmt.Sprintf("entry %d", v.BadSeq),
			Message: fmt.Sprintf("ledger verification failed after %d good entries: entry %d: %s", v.Entries, v.BadSeq, v.Problem)}
	}
	return nil
}

// exportPage is how many entries one read of an export asks for (the most a store
// and the API give at once).
const exportPage = 1000

func runExport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var t target
	fs := newFlags("ledger export", ledgerHelp, stdout, stderr)
	t.flags(fs)
	out := fs.String("out", "", "export to this `file` (default stdout)")
	if err := parse(fs, args, false); err != nil {
		return err
	}
	l, uctx, done, err := t.ledger(ctx, app.ReadOnly)
	if err != nil {
		return err
	}
	defer done()
	w, commit, err := output(*out, stdout)
	if err != nil {
		return err
	}
	// A local export is the whole ledger: only who reads all of it may make one (a
	// server lists an officer its own state's entries).
	if !t.remote() && !solidarity.Can(solidarity.UserFromContext(uctx), solidarity.ReadLedger, "") {
		return &solidarity.Error{Code: solidarity.EUNAUTHORIZED, Message: "not allowed: read.ledger"}
	}
	enc := json.NewEncoder(w)
	n := 0
	for after := int64(0); ; {
		es, err := l.Entries(uctx, solidarity.EntryFilter{AfterSeq: after, Limit: exportPage})
		if err != nil {
			return err
		}
		for _, e := range es {
			if err := enc.Encode(e); err != nil {
				return err
			}
			n++
		}
		if len(es) < exportPage {
			break
		}
		after = es[len(es)-1].Seq
	}
	if err := commit(); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "exported %d entries\n", n)
	return nil
}

// output returns a writer for path ("" is stdout) and a commit function that makes a
// file appear atomically and durably.
func output(path string, stdout io.Writer) (io.Writer, func() error, error) {
	if path == "" {
		bw := bufio.NewWriter(stdout)
		return bw, bw.Flush, nil
	}
	f, err := os.CreateTemp(dirOf(path), ".export-*")
	if err != nil {
		return nil, nil, &solidarity.Error{Code: solidarity.EINVALID, File: path, Message: "cannot write here"}
	}
	bw := bufio.NewWriter(f)
	return bw, func() error {
		if err := bw.Flush(); err != nil {
			return err
		}
		if err := f.Sync(); err != nil {
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
		return os.Rename(f.Name(), path)
	}, nil
}

func dirOf(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[:i+1]
	}
	return "."
}
