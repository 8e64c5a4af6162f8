package web

import (
	"net/http"

	"solidarity"
	"solidarity/ledger"
)

// The verification of the ledger, open to anyone (issue 14: the README promises an
// open, checkable ledger). Auditors and the coordinator get the full verification,
// run afresh; everyone else the public summary of the last one (at most
// ledgersvc.PublicVerifyEvery old), and anyone the public download to check offline
// with `solidarity ledger verify --file`.

func (s *Server) handleVerify(w http.ResponseWriter, r *http.Request) {
	if !solidarity.Can(solidarity.UserFromContext(r.Context()), solidarity.VerifyLedger, "") {
		v, err := s.ledger.PublicSummary(r.Context())
		if err != nil {
			s.serviceError(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, v)
		return
	}
	v, err := s.ledger.Verify(r.Context())
	if err != nil {
		s.serviceError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// PublicLedgerType is the media type of the public download: one JSON object per line.
const PublicLedgerType = "application/x-ndjson"

// handlePublicLedger streams the public download (ledger.Publish), entry by entry as
// the store pages them: nothing holds the whole ledger. It stops when the client goes
// or the request's budget runs out (withBudget cancels the context the store reads
// with); a download cut short after its first line is aborted, not ended, so that the
// client cannot take a prefix for the whole ledger.
func (s *Server) handlePublicLedger(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	enc := ledger.NewPublicEncoder(w)
	started := false
	for p, err := range s.ledger.PublicEntries(ctx) {
		if err == nil {
			err = ctx.Err()
		}
		if err != nil {
			if !started {
				s.serviceError(w, r, err)
				return
			}
			panic(http.ErrAbortHandler)
		}
		if !started {
			w.Header().Set("Content-Type", PublicLedgerType)
			w.Header().Set("Content-Disposition", `inline; filename="solidarity-ledger.jsonl"`)
			started = true
		}
		if err := enc.Encode(p); err != nil {
			return // the client went away
		}
	}
	if !started { // an empty ledger is an empty download
		w.Header().Set("Content-Type", PublicLedgerType)
		w.WriteHeader(http.StatusOK)
	}
}
