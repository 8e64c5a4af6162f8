package ledgersvc_test

import (
	"context"
	"testing"
	"time"

	"solidarity"
	"solidarity/internal/ledgersvc"
	"solidarity/ledger"
)

func TestPublicSummary(t *testing.T) {
	f := newFixture(t)
	f.svc.Pledge(as(officerDE), 2027, "DE", solidarity.PledgePayload{Type: solidarity.Financial, EURCents: 1}, "")
	full, err := f.svc.Verify(as(auditor))
	if err != nil {
		t.Fatal(err)
	}
	pub, err := f.svc.PublicSummary(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := ledgersvc.PublicVerification{Entries: full.Entries, HeadSeq: full.Entries, Head: full.Head, OK: true, ChainOK: true,
		TotalsOK: true, Verified: full.Verified, Download: ledgersvc.PublicDownload}
	if *pub != want {
		t.Fatalf("public %+v, want %+v", *pub, want)
	}
	// A new entry: the public summary stays the last verification until it is
	// PublicVerifyEvery old, then one verification reads the ledger again.
	f.svc.Pledge(as(officerFR), 2027, "FR", solidarity.PledgePayload{Type: solidarity.Financial, EURCents: 1}, "")
	if pub, _ = f.svc.PublicSummary(context.Background()); pub.Entries != full.Entries {
		t.Fatalf("re-verified within %v: %+v", ledgersvc.PublicVerifyEvery, pub)
	}
	f.now = f.now.Add(ledgersvc.PublicVerifyEvery)
	if pub, _ = f.svc.PublicSummary(context.Background()); pub.Entries != full.Entries+1 || !pub.Verified.Equal(f.now) {
		t.Fatalf("not re-verified after %v: %+v", ledgersvc.PublicVerifyEvery, pub)
	}
	// Auditors always get a fresh verification.
	f.svc.Pledge(as(officerDE), 2027, "DE", solidarity.PledgePayload{Type: solidarity.Financial, EURCents: 2}, "")
	if v, _ := f.svc.Verify(as(auditor)); v.Entries != full.Entries+2 {
		t.Fatalf("auditor %+v", v)
	}
}

func TestSummarize(t *testing.T) {
	at := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name          string
		v             ledger.Verification
		chain, totals bool
	}{
		{"good", ledger.Verification{OK: true, Entries: 4, Head: "h"}, true, true},
		{"bad entry", ledger.Verification{Entries: 2, BadSeq: 3, Head: "h"}, false, false},
		{"bad totals", ledger.Verification{Entries: 4, BadTotals: &ledger.TotalsMismatch{}}, true, false},
		{"unsummable delivery", ledger.Verification{Entries: 4, BadSeq: 2}, true, false},
		{"projection beyond the chain", ledger.Verification{Entries: 4}, true, false},
	} {
		c.v.Verified = at
		s := ledgersvc.Summarize(&c.v)
		if s.ChainOK != c.chain || s.TotalsOK != c.totals || s.OK != c.v.OK || s.Entries != c.v.Entries || s.HeadSeq != c.v.Entries || !s.Verified.Equal(at) {
			t.Errorf("%s: %+v", c.name, s)
		}
	}
}

func TestPublicEntriesRedactsTheCaseFlow(t *testing.T) {
	f := newFixture(t)
	f.svc.Pledge(as(officerDE), 2027, "DE", solidarity.PledgePayload{Type: solidarity.Financial, EURCents: 1}, "")
	n := 0
	for p, err := range f.svc.PublicEntries(context.Background()) {
		if err != nil {
			t.Fatal(err)
		}
		n++
		if p.Seq != int64(n) || p.Redacted != ledger.Redacted(p.Type) || p.Redacted && p.Payload != nil {
			t.Fatalf("line %d: %+v", n, p)
		}
	}
	if n != 2 {
		t.Fatalf("%d entries", n)
	}
}
