package ledgersvc

import (
	"context"
	"iter"
	"time"

	"solidarity"
	"solidarity/ledger"
)

// PublicVerifyEvery is the age at which the public summary of the verification is
// recomputed (issue 14): anyone may ask for it, so a request is answered from the last
// full verification, and at most one full verification per interval re-reads the
// ledger, however many anonymous requests arrive.
const PublicVerifyEvery = 60 * time.Second

// Verify checks the whole chain, and the totals projection that balances are read
// from against the entries (auditors and the coordinator). It only reads: it runs on a
// store opened read-only.
func (s *Service) Verify(ctx context.Context) (*ledger.Verification, error) {
	if err := authorize(ctx, solidarity.VerifyLedger, ""); err != nil {
		return nil, err
	}
	return s.verify(ctx)
}

func (s *Service) verify(ctx context.Context) (*ledger.Verification, error) {
	p, err := s.Store.AllTotals(ctx)
	if err != nil {
		return nil, err
	}
	v, err := ledger.VerifyProjection(s.Store.All(ctx), p, s.Now())
	if err == nil {
		s.verified.Store(v)
	}
	return v, err
}

// RecentVerification returns the last full verification if it is younger than maxAge,
// and otherwise verifies again. Pages use it so that a ledger of millions of entries is
// not re-read on every view; the result says when it was made.
func (s *Service) RecentVerification(ctx context.Context, maxAge time.Duration) (*ledger.Verification, error) {
	if err := authorize(ctx, solidarity.VerifyLedger, ""); err != nil {
		return nil, err
	}
	return s.recent(ctx, maxAge)
}

// recent is RecentVerification without the check of who asks. Callers that find the
// result stale wait for one verification rather than each running their own.
func (s *Service) recent(ctx context.Context, maxAge time.Duration) (*ledger.Verification, error) {
	fresh := func() *ledger.Verification {
		if v := s.verified.Load(); v != nil && s.Now().Sub(v.Verified) < maxAge {
			return v
		}
		return nil
	}
	if v := fresh(); v != nil {
		return v, nil
	}
	if s.verifying != nil { // a Service not made by New does not serialise
		select { // a caller that goes away stops waiting
		case s.verifying <- struct{}{}:
			defer func() { <-s.verifying }()
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if v := fresh(); v != nil { // verified while this caller waited
		return v, nil
	}
	return s.verify(ctx)
}

// PublicVerification is what anyone may know of the ledger's verification: how many
// entries, the head, whether the chain and the totals verified, and when. It names no
// entry's content.
type PublicVerification struct {
	Entries  int64     `json:"entries"`
	HeadSeq  int64     `json:"head_seq"`
	Head     string    `json:"head,omitempty"`
	OK       bool      `json:"ok"`
	ChainOK  bool      `json:"chain_ok"`
	TotalsOK bool      `json:"totals_ok"`
	BadSeq   int64     `json:"bad_seq,omitempty"`
	Verified time.Time `json:"verified_at"`
	// Download is where the entries are, to verify the head offline.
	Download string `json:"download"`
}

// PublicDownload is the route of the public download, named in the summary.
const PublicDownload = "/api/v1/ledger/public.jsonl"

// PublicSummary returns the public summary of a verification at most
// PublicVerifyEvery old (anyone, solidarity.ReadPublished).
func (s *Service) PublicSummary(ctx context.Context) (*PublicVerification, error) {
	if err := authorize(ctx, solidarity.ReadPublished, ""); err != nil {
		return nil, err
	}
	v, err := s.recent(ctx, PublicVerifyEvery)
	if err != nil {
		return nil, err
	}
	return Summarize(v), nil
}

// Summarize returns the public part of v. The chain is good unless its first bad
// entry is the one after the good ones (ledger.Verify); any other failure is of the
// totals read from it.
func Summarize(v *ledger.Verification) *PublicVerification {
	chainOK := v.OK || v.BadTotals != nil || v.BadSeq != v.Entries+1
	return &PublicVerification{Entries: v.Entries, HeadSeq: v.Entries, Head: v.Head, OK: v.OK,
		ChainOK: chainOK, TotalsOK: v.OK, BadSeq: v.BadSeq, Verified: v.Verified, Download: PublicDownload}
}

// PublicEntries streams every entry in sequence order as the public download shows it
// (ledger.Publish): anyone may read it (solidarity.ReadPublished).
func (s *Service) PublicEntries(ctx context.Context) iter.Seq2[*ledger.PublicEntry, error] {
	return func(yield func(*ledger.PublicEntry, error) bool) {
		if err := authorize(ctx, solidarity.ReadPublished, ""); err != nil {
			yield(nil, err)
			return
		}
		for e, err := range s.Store.All(ctx) {
			if err != nil {
				yield(nil, err)
				return
			}
			if !yield(ledger.Publish(e), nil) {
				return
			}
		}
	}
}
