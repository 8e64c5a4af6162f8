package web

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"solidarity"
	"solidarity/internal/ledgersvc"
	"solidarity/ledger"
)

// The ledger view: entries with filters and paging, and the verification summary.

type ledgerPage struct {
	base
	Page         *EntryPage
	Cycle, State string
	Type         string
	Limit        int
	Next, First  string
	Verification *ledger.Verification
	VerifyMsg    string
	OwnState     solidarity.MemberState // an officer sees this state's entries only
	Types        []solidarity.EntryType
	States       []solidarity.MemberState
}

func (s *Server) handleLedgerPage(w http.ResponseWriter, r *http.Request) {
	u := solidarity.UserFromContext(r.Context())
	if u == nil {
		s.toLogin(w, r)
		return
	}
	f, err := entryFilter(r, 50)
	if err != nil {
		s.pageError(w, r, err)
		return
	}
	entries, err := s.entries(r.Context(), f)
	if err != nil {
		s.pageServiceError(w, r, err)
		return
	}
	q := r.URL.Query()
	page := ledgerPage{base: s.base(r, "Ledger"), Page: entries, Cycle: q.Get("cycle"), State: q.Get("state"), Type: q.Get("type"),
		Limit: f.Limit, Types: solidarity.EntryTypes(), States: solidarity.MemberStates()}
	if !solidarity.Can(u, solidarity.ReadLedger, "") {
		page.OwnState = u.State
	}
	link := func(after int64) string {
		v := url.Values{}
		for _, k := range []string{"cycle", "state", "type"} {
			if q.Get(k) != "" {
				v.Set(k, q.Get(k))
			}
		}
		if f.Limit != 50 {
			v.Set("limit", itoa(f.Limit))
		}
		if after > 0 {
			v.Set("after", strconv.FormatInt(after, 10))
		}
		if len(v) == 0 {
			return "/ledger"
		}
		return "/ledger?" + v.Encode()
	}
	if entries.NextAfter != nil {
		page.Next = link(*entries.NextAfter)
	}
	if f.AfterSeq > 0 {
		page.First = link(0)
	}
	// A full verification at most once a minute: the page says when it was made; for
	// auditors and the coordinator GET /api/v1/ledger/verify and `solidarity ledger
	// verify` always run a fresh one. Others see the public summary.
	v, err := s.ledger.RecentVerification(r.Context(), time.Minute)
	switch {
	case solidarity.ErrorCode(err) == solidarity.EUNAUTHORIZED:
		// What anyone may know of it: the public summary, and where to check it offline.
		sum, err := s.ledger.PublicSummary(r.Context())
		if err != nil {
			s.pageError(w, r, err)
			return
		}
		page.VerifyMsg = publicVerifyMsg(sum)
	case err != nil:
		s.pageError(w, r, err)
		return
	default:
		page.Verification = v
	}
	s.render(w, r, http.StatusOK, "ledger.html", page)
}

// publicVerifyMsg says what the public summary of a verification found, for a user who
// may not run one: every figure the public download lets anyone check offline.
func publicVerifyMsg(v *ledgersvc.PublicVerification) string {
	if !v.OK {
		return fmt.Sprintf("The last verification, at %s, found a bad entry (%d). The public download (%s) shows the chain as stored.",
			v.Verified.UTC().Format("2006-01-02 15:04:05 UTC"), v.BadSeq, v.Download)
	}
	return fmt.Sprintf("Chain verified (public summary): %d entries, head %d, at %s. Anyone can check it offline: download %s and run `solidarity ledger verify --file`.",
		v.Entries, v.HeadSeq, v.Verified.UTC().Format("2006-01-02 15:04:05 UTC"), v.Download)
}
