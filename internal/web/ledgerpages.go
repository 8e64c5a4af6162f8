package web

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"

	"solidarity"
	"solidarity/internal/i18n"
	"solidarity/internal/ledgersvc"
	"solidarity/ledger"
)

// The ledger view: each entry as one line (ledgerlines.go) with its payload behind a
// toggle; filters by cycle, state, type, reference or case, and days recorded; newest
// first unless asked otherwise; pages numbered "N of M" with first, previous, next and
// last; the filtered list as CSV or JSON lines; and the verification summary.
//
// Pages are keyed, never offset: a page after or before an entry's sequence number
// (?before=, ?after=), so that what an officer appends while someone reads does not
// shift the pages under them. Its number is counted: the entries before its first.

type ledgerRow struct {
	*solidarity.Entry
	Line    string // the entry said in the page's language
	Payload string // the raw payload; a cycle file is shown by its size only
}

type ledgerPage struct {
	base
	Rows                    []ledgerRow
	Cycle, State, Type, Ref string
	From, To                string
	Oldest                  bool
	Limit                   int
	Total                   int64
	Number, Pages           int
	First, Prev, Next, Last string
	CSV, JSONL              string
	Verification            *ledger.Verification
	VerifyMsg               string
	OwnState                solidarity.MemberState // an officer sees this state's entries only
	Types                   []solidarity.EntryType
	States                  []solidarity.MemberState
}

// ledgerPageLimit is the page's default length.
const ledgerPageLimit = 50

// ledgerQuery is the part of the page's query that selects entries (not a page):
// carried by every link of the page and by the downloads.
var ledgerQuery = []string{"cycle", "state", "type", "ref", "from", "to", "order"}

func (s *Server) handleLedgerPage(w http.ResponseWriter, r *http.Request) {
	u := solidarity.UserFromContext(r.Context())
	if u == nil {
		s.toLogin(w, r)
		return
	}
	q := r.URL.Query()
	f, err := entryFilter(r, ledgerPageLimit)
	if err != nil {
		s.pageError(w, r, err)
		return
	}
	// The page lists newest first unless asked otherwise; the API's default, oldest
	// first, stays the API's.
	f.Newest = q.Get("order") != "oldest"
	switch q.Get("format") {
	case "":
	case "csv", "jsonl":
		s.ledgerDownload(w, r, f, q.Get("format"))
		return
	default:
		s.pageError(w, r, &solidarity.Error{Code: solidarity.EINVALID, Field: "format", Message: "format must be csv or jsonl"})
		return
	}
	page := ledgerPage{base: s.base(r, "Ledger"), Cycle: q.Get("cycle"), State: q.Get("state"), Type: q.Get("type"),
		Ref: f.Ref, From: q.Get("from"), To: q.Get("to"), Oldest: !f.Newest, Limit: f.Limit,
		Types: solidarity.EntryTypes(), States: solidarity.MemberStates()}
	if !solidarity.Can(u, solidarity.ReadLedger, "") {
		page.OwnState = u.State
	}
	if err := s.ledgerRows(r.Context(), &page, f, q.Get("last") == "1"); err != nil {
		s.pageServiceError(w, r, err)
		return
	}
	page.links(q)
	if err := s.ledgerVerification(r, &page); err != nil {
		s.pageError(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, "ledger.html", page)
}

// ledgerRows reads the page f asks (or the last page), its total and its number.
// A page back (?after= newest first, ?before= oldest first) and the last page are
// read in the other order and turned.
func (s *Server) ledgerRows(ctx context.Context, p *ledgerPage, f solidarity.EntryFilter, last bool) error {
	all := f
	all.AfterSeq, all.BeforeSeq = 0, 0
	total, err := s.ledger.CountEntries(ctx, all)
	if err != nil {
		return err
	}
	p.Total = total
	p.Pages = max(1, int((total+int64(f.Limit)-1)/int64(f.Limit)))
	read := f
	back := f.Newest && f.AfterSeq > 0 && f.BeforeSeq == 0 || !f.Newest && f.BeforeSeq > 0 && f.AfterSeq == 0
	if last {
		read = all
		read.Limit = max(1, int(total-int64(p.Pages-1)*int64(f.Limit)))
		back = true
	}
	if back {
		read.Newest = !f.Newest
	}
	es, err := s.ledger.Entries(ctx, read)
	if err != nil {
		return err
	}
	if back {
		slices.Reverse(es)
	}
	l := p.L
	for _, e := range es {
		row := ledgerRow{Entry: e, Line: entryLine(l, e), Payload: string(e.Payload)}
		if e.Type == solidarity.CycleCreated || e.Type == solidarity.CycleAmended {
			row.Payload = l.T("(the cycle file, %s bytes: in the JSON and the downloads)", l.Int(int64(len(e.Payload))))
		}
		p.Rows = append(p.Rows, row)
	}
	p.Number = 1
	if len(es) == 0 {
		if total > 0 { // a key past either end (an old or edited link): a way back
			p.First = "first"
		}
		return nil
	}
	// The entries before this page in its order: those above its first newest first.
	before := all
	if f.Newest {
		before.AfterSeq = es[0].Seq
	} else {
		before.BeforeSeq = es[0].Seq
	}
	ahead, err := s.ledger.CountEntries(ctx, before)
	if err != nil {
		return err
	}
	p.Number = min(p.Pages, int((ahead+int64(f.Limit)-1)/int64(f.Limit))+1)
	if ahead > 0 {
		p.First = "first"
		p.Prev = "prev"
	}
	if ahead+int64(len(es)) < total {
		p.Next = "next"
		p.Last = "last"
	}
	return nil
}

// links fills the page's navigation and download links from the query q, keeping its
// filters: First, Prev, Next and Last are set (to a marker) where they apply.
func (p *ledgerPage) links(q url.Values) {
	link := func(path string, set ...string) string {
		v := url.Values{}
		for _, k := range ledgerQuery {
			if x := q.Get(k); x != "" && !(k == "order" && x == "newest") {
				v.Set(k, x)
			}
		}
		if p.Limit != ledgerPageLimit && path == "/ledger" {
			v.Set("limit", strconv.Itoa(p.Limit))
		}
		for i := 0; i+1 < len(set); i += 2 {
			v.Set(set[i], set[i+1])
		}
		if len(v) == 0 {
			return path
		}
		return path + "?" + v.Encode()
	}
	seq := func(i int) string { return strconv.FormatInt(p.Rows[i].Seq, 10) }
	forward, backward := "before", "after" // newest first: the next page is below
	if p.Oldest {
		forward, backward = "after", "before"
	}
	if p.First != "" {
		p.First = link("/ledger")
		p.Prev = p.First
		if len(p.Rows) > 0 {
			p.Prev = link("/ledger", backward, seq(0))
		}
	}
	if p.Next != "" {
		p.Next = link("/ledger", forward, seq(len(p.Rows)-1))
		p.Last = link("/ledger", "last", "1")
	}
	p.CSV = link("/ledger", "format", "csv")
	p.JSONL = link("/ledger", "format", "jsonl")
}

// ledgerVerification sets the page's verification: in full for those who may run
// one, else the public summary.
func (s *Server) ledgerVerification(r *http.Request, page *ledgerPage) error {
	// A full verification at most once a minute: the page says when it was made; for
	// auditors and the coordinator GET /api/v1/ledger/verify and `solidarity ledger
	// verify` always run a fresh one. Others see the public summary.
	v, err := s.ledger.RecentVerification(r.Context(), time.Minute)
	switch {
	case solidarity.ErrorCode(err) == solidarity.EUNAUTHORIZED:
		// What anyone may know of it: the public summary, and where to check it offline.
		sum, err := s.ledger.PublicSummary(r.Context())
		if err != nil {
			return err
		}
		page.VerifyMsg = publicVerifyMsg(page.L, sum)
	case err != nil:
		return err
	default:
		page.Verification = v
	}
	return nil
}

// ledgerDownload writes every entry f selects (its keys and limit aside), in its
// order, as CSV or JSON lines: read a store page at a time, so that neither the
// ledger nor the answer is held whole. The service authorises each read as the
// page's: an officer downloads its own state's entries.
func (s *Server) ledgerDownload(w http.ResponseWriter, r *http.Request, f solidarity.EntryFilter, format string) {
	f.AfterSeq, f.BeforeSeq, f.Limit = 0, 0, solidarity.MaxPageLimit
	first, err := s.ledger.Entries(r.Context(), f)
	if err != nil {
		s.pageServiceError(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	var write func(*solidarity.Entry) error
	var flush func() error
	en := i18n.New("en") // a download's columns and lines are English, like the API
	switch format {
	case "csv":
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
		w.Header().Set("Content-Disposition", `attachment; filename="ledger.csv"`)
		cw := csv.NewWriter(w)
		cw.Write([]string{"seq", "at", "cycle", "type", "state", "ref", "actor", "legal_basis", "summary", "payload", "prev_hash", "hash"})
		write = func(e *solidarity.Entry) error {
			return cw.Write([]string{strconv.FormatInt(e.Seq, 10), e.At.UTC().Format(time.RFC3339Nano), strconv.Itoa(e.Cycle),
				string(e.Type), string(e.State), e.Ref, e.Actor, e.LegalBasis, entryLine(en, e), string(e.Payload), e.PrevHash, e.Hash})
		}
		flush = func() error { cw.Flush(); return cw.Error() }
	default:
		w.Header().Set("Content-Type", PublicLedgerType)
		w.Header().Set("Content-Disposition", `attachment; filename="ledger.jsonl"`)
		enc := json.NewEncoder(w)
		write = func(e *solidarity.Entry) error { return enc.Encode(e) }
		flush = func() error { return nil }
	}
	for es := first; ; {
		for _, e := range es {
			if err := write(e); err != nil {
				return // the client has gone
			}
		}
		if len(es) < f.Limit {
			break
		}
		if f.Newest {
			f.BeforeSeq = es[len(es)-1].Seq
		} else {
			f.AfterSeq = es[len(es)-1].Seq
		}
		if es, err = s.ledger.Entries(r.Context(), f); err != nil {
			// Headers are sent: abort the answer, so that a cut download is never
			// taken for a whole one.
			s.Logger.Error("ledger download", "err", err)
			panic(http.ErrAbortHandler)
		}
	}
	if err := flush(); err != nil {
		return
	}
}

// publicVerifyMsg says what the public summary of a verification found, for a user who
// may not run one: every figure the public download lets anyone check offline.
func publicVerifyMsg(l *i18n.Locale, v *ledgersvc.PublicVerification) string {
	at := v.Verified.UTC().Format("2006-01-02 15:04:05 UTC")
	if !v.OK {
		return l.T("The last verification, at %s, found a bad entry (%s). The public download (%s) shows the chain as stored.",
			at, strconv.FormatInt(v.BadSeq, 10), v.Download)
	}
	return l.T("Chain verified (public summary): %s entries, head %s, at %s. Anyone can check it offline: download %s and run `solidarity ledger verify --file`.",
		l.Int(v.Entries), strconv.FormatInt(v.HeadSeq, 10), at, v.Download)
}
