package web

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"solidarity"
	"solidarity/internal/cyclefile"
)

// The ledger API. Every handler has one shape: parse the path and query, decode the
// body, call the service with the user in the context, answer through writeJSON or
// serviceError. The service decides who may do what.

var errNoLedger = &solidarity.Error{Code: solidarity.ENOTFOUND, Message: "this server has no ledger"}

// api wraps a handler of the ledger API: 404 when the server has no ledger.
func (s *Server) api(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.ledger == nil {
			s.apiError(w, r, errNoLedger)
			return
		}
		h(w, r)
	}
}

// authed wraps a handler of the ledger API that needs an authenticated user: writes
// and user management answer 401 to the public before reading the body. Which user
// may do what is the service's decision.
func (s *Server) authed(h http.HandlerFunc) http.HandlerFunc {
	return s.api(func(w http.ResponseWriter, r *http.Request) {
		if solidarity.UserFromContext(r.Context()) == nil {
			s.unauthenticated(w, r, errUnauthenticated("authentication required: send Authorization: Bearer <token>, or log in"))
			return
		}
		h(w, r)
	})
}

// writeEntry runs one ledger write under the request's idempotency key and answers
// 201 with the entry, or 200 with Idempotency-Replayed: true when the key had written
// it before.
func (s *Server) writeEntry(w http.ResponseWriter, r *http.Request, do func(ctx context.Context, key string) (*solidarity.Entry, bool, error)) {
	key, err := idempotencyKey(r)
	if err != nil {
		s.apiError(w, r, err)
		return
	}
	e, replayed, err := do(r.Context(), key)
	if err != nil {
		s.serviceError(w, r, err)
		return
	}
	status := http.StatusCreated
	if replayed {
		status = http.StatusOK
		w.Header().Set("Idempotency-Replayed", "true")
	} else {
		s.metrics.appends.WithLabelValues(string(e.Type)).Inc()
	}
	writeJSON(w, status, e)
}

// writeFor decodes a JSON payload and runs a write about {year} and {state}.
func writeFor[P any](s *Server, w http.ResponseWriter, r *http.Request,
	op func(ctx context.Context, year int, m solidarity.MemberState, p P, key string) (*solidarity.Entry, bool, error)) {
	year, err := pathYear(r)
	if err != nil {
		s.apiError(w, r, err)
		return
	}
	m, err := pathState(r)
	if err != nil {
		s.apiError(w, r, err)
		return
	}
	var p P
	if err := decodeJSON(r, &p); err != nil {
		s.apiError(w, r, err)
		return
	}
	s.writeEntry(w, r, func(ctx context.Context, key string) (*solidarity.Entry, bool, error) {
		return op(ctx, year, m, p, key)
	})
}

// writeRef decodes a JSON payload and runs a write about {year} and {ref}.
func writeRef[P any](s *Server, w http.ResponseWriter, r *http.Request,
	op func(ctx context.Context, year int, ref string, p P, key string) (*solidarity.Entry, bool, error)) {
	year, err := pathYear(r)
	if err != nil {
		s.apiError(w, r, err)
		return
	}
	var p P
	if err := decodeJSON(r, &p); err != nil {
		s.apiError(w, r, err)
		return
	}
	ref := r.PathValue("ref")
	s.writeEntry(w, r, func(ctx context.Context, key string) (*solidarity.Entry, bool, error) {
		return op(ctx, year, ref, p, key)
	})
}

func (s *Server) handleCreateCycle(w http.ResponseWriter, r *http.Request) {
	body, err := readBody(r)
	if err != nil {
		s.apiError(w, r, err)
		return
	}
	s.writeEntry(w, r, func(ctx context.Context, key string) (*solidarity.Entry, bool, error) {
		return s.ledger.CreateCycle(ctx, string(body), key)
	})
}

func (s *Server) handleAmendCycle(w http.ResponseWriter, r *http.Request) {
	year, err := pathYear(r)
	if err != nil {
		s.apiError(w, r, err)
		return
	}
	body, err := readBody(r)
	if err != nil {
		s.apiError(w, r, err)
		return
	}
	// The file names its year; it must be the year of the path. (A file that does not
	// parse goes to the service, which says why after checking who asks.)
	if c, err := cyclefile.Parse("request body", body); err == nil && c.Year != year {
		s.apiError(w, r, &solidarity.Error{Code: solidarity.EINVALID, File: "request body", Field: "year",
			Message: fmt.Sprintf("the file is the %d cycle, the path names %d", c.Year, year)})
		return
	}
	s.writeEntry(w, r, func(ctx context.Context, key string) (*solidarity.Entry, bool, error) {
		return s.ledger.AmendCycle(ctx, string(body), key)
	})
}

func (s *Server) handleStatus(w http.ResponseWriter, r *http.Request) {
	writeFor(s, w, r, s.ledger.SetStatus)
}
func (s *Server) handlePledge(w http.ResponseWriter, r *http.Request) {
	writeFor(s, w, r, s.ledger.Pledge)
}
func (s *Server) handleDeductionRequest(w http.ResponseWriter, r *http.Request) {
	writeFor(s, w, r, s.ledger.RequestDeduction)
}
func (s *Server) handleAssessment(w http.ResponseWriter, r *http.Request) {
	writeRef(s, w, r, s.ledger.AssessDeduction)
}
func (s *Server) handleDecision(w http.ResponseWriter, r *http.Request) {
	writeRef(s, w, r, s.ledger.DecideDeduction)
}
func (s *Server) handleOffsetRequest(w http.ResponseWriter, r *http.Request) {
	writeFor(s, w, r, s.ledger.RequestOffset)
}
func (s *Server) handleOffsetOffer(w http.ResponseWriter, r *http.Request) {
	writeFor(s, w, r, s.ledger.OfferOffset)
}
func (s *Server) handleOffsetReply(w http.ResponseWriter, r *http.Request) {
	writeRef(s, w, r, s.ledger.ReplyOffset)
}

// DeliveryRequest is the body of POST .../deliveries/{state}: the kind of delivery and
// what was delivered.
type DeliveryRequest struct {
	Type solidarity.EntryType `json:"type"`
	solidarity.DeliveryPayload
}

func (s *Server) handleDelivery(w http.ResponseWriter, r *http.Request) {
	writeFor(s, w, r, func(ctx context.Context, year int, m solidarity.MemberState, p DeliveryRequest, key string) (*solidarity.Entry, bool, error) {
		if p.Transfer != nil {
			// A transfer is the case flow's to record (POST /api/v1/cases/{id}/events).
			return nil, false, &solidarity.Error{Code: solidarity.EINVALID, Field: "transfer",
				Message: "a relocation transfer is recorded by the case flow, as the event transferred on the cases"}
		}
		return s.ledger.Deliver(ctx, year, m, p.Type, p.DeliveryPayload, key)
	})
}

func (s *Server) handleBalances(w http.ResponseWriter, r *http.Request) {
	year, err := pathYear(r)
	if err != nil {
		s.apiError(w, r, err)
		return
	}
	asOf, err := solidarity.ParseAsOf(r.URL.Query().Get("as_of")) // a day counts to its end
	if err != nil {
		s.apiError(w, r, err)
		return
	}
	b, err := s.balances(r.Context(), year, asOf)
	if err != nil {
		s.serviceError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, b)
}

// EntryPage is a page of GET /api/v1/ledger/entries: NextCursor continues it (null on
// the last page), Total counts every entry the filter selects. NextAfter is the
// after= of the next page in oldest-first order, kept for the clients that page so.
type EntryPage struct {
	Entries    []*solidarity.Entry `json:"entries"`
	NextCursor *string             `json:"next_cursor"`
	Total      int64               `json:"total"`
	NextAfter  *int64              `json:"next_after"`
}

// The cursors of the entry listing, one list per order.
const (
	entriesOldest = "entries"
	entriesNewest = "entries.newest"
)

// entryFilter reads the query of an entry listing: order (oldest, the default, or
// newest), cursor or after/before, limit (1 to solidarity.MaxPageLimit), cycle, state,
// type, ref (a reference or case ID, or its start) and from/to (queryDays).
func entryFilter(r *http.Request, defaultLimit int) (solidarity.EntryFilter, error) {
	q := r.URL.Query()
	f := solidarity.EntryFilter{Limit: defaultLimit}
	bad := func(field, msg string) error {
		return &solidarity.Error{Code: solidarity.EINVALID, Field: field, Message: msg}
	}
	switch q.Get("order") {
	case "", "oldest":
	case "newest":
		f.Newest = true
	default:
		return f, bad("order", "want oldest or newest")
	}
	for _, k := range []struct {
		name string
		seq  *int64
	}{{"after", &f.AfterSeq}, {"before", &f.BeforeSeq}} {
		if v := q.Get(k.name); v != "" {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n < 0 {
				return f, bad(k.name, "want a sequence number ≥ 0")
			}
			*k.seq = n
		}
	}
	if c := q.Get("cursor"); c != "" {
		list, key := entriesOldest, &f.AfterSeq
		if f.Newest {
			list, key = entriesNewest, &f.BeforeSeq
		}
		n, err := seqCursor(list, c)
		if err != nil {
			return f, err
		}
		*key = n
	}
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > solidarity.MaxPageLimit {
			return f, bad("limit", fmt.Sprintf("want a number from 1 to %d", solidarity.MaxPageLimit))
		}
		f.Limit = n
	}
	if v := q.Get("cycle"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return f, bad("cycle", "want a year")
		}
		f.Cycle = &n
	}
	if v := q.Get("state"); v != "" {
		m, ok := solidarity.ParseMemberState(v)
		if !ok {
			return f, bad("state", fmt.Sprintf("%q is not a Member State code", v))
		}
		f.State = &m
	}
	if v := q.Get("type"); v != "" {
		t := solidarity.EntryType(v)
		if !slices.Contains(solidarity.EntryTypes(), t) {
			return f, bad("type", fmt.Sprintf("%q is not an entry type", v))
		}
		f.Type = &t
	}
	f.Ref = strings.TrimSpace(q.Get("ref"))
	var err error
	if f.From, f.To, err = queryDays(r); err != nil {
		return f, err
	}
	// The store checks the rest (the ref's length); checked here too, so that a
	// page refuses a filter before it counts anything.
	return f.Normalize()
}

// entries lists a page of entries: one more than asked is read to know whether a next
// page exists (within the store's limit, solidarity.MaxPageLimit), and the total is
// counted with the same filter without its keys.
func (s *Server) entries(ctx context.Context, f solidarity.EntryFilter) (*EntryPage, error) {
	want := f.Limit
	f.Limit = min(want+1, solidarity.MaxPageLimit)
	es, err := s.ledger.Entries(ctx, f)
	if err != nil {
		return nil, err
	}
	all := f
	all.AfterSeq, all.BeforeSeq, all.Limit = 0, 0, 0
	total, err := s.ledger.CountEntries(ctx, all)
	if err != nil {
		return nil, err
	}
	page := &EntryPage{Entries: es, Total: total}
	if len(es) > want || len(es) == solidarity.MaxPageLimit {
		page.Entries = es[:want]
		next := page.Entries[len(page.Entries)-1].Seq
		list := entriesOldest
		if f.Newest {
			list = entriesNewest
		} else {
			page.NextAfter = &next
		}
		c := seqCursorText(list, next)
		page.NextCursor = &c
	}
	if page.Entries == nil {
		page.Entries = []*solidarity.Entry{}
	}
	return page, nil
}

func (s *Server) handleEntries(w http.ResponseWriter, r *http.Request) {
	f, err := entryFilter(r, solidarity.DefaultPageLimit)
	if err != nil {
		s.apiError(w, r, err)
		return
	}
	page, err := s.entries(r.Context(), f)
	if err != nil {
		s.serviceError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, page)
}
