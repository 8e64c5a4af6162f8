package web

import (
	"crypto/rand"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"solidarity"
	"solidarity/apportion"
	"solidarity/internal/cyclefile"
	"solidarity/internal/i18n"
	"solidarity/internal/report"
)

// The dashboard's and the state pages' live balances from the ledger, and the
// pledge and delivery forms. Forms post to this origin only
// (http.CrossOriginProtection and the CSP's form-action), and answer a successful post
// with a redirect (303) to the page, so that reloading it never posts twice; each form
// also carries an idempotency key of its own for the same reason.

// live is what the ledger says about the cycle a page shows.
type live struct {
	*report.Balances
	byState map[string]*report.StateBalance
}

// State returns the balance line of m (nil if m is not in the cycle).
func (l *live) State(m string) *report.StateBalance { return l.byState[m] }

// dashboardPool returns the pool a page shows: with a ledger that holds the cycle,
// the ledger's pool and its balances (live); else the shipped cycle file, as before.
// The ledger's balances are computed with the cycle's own method: a page asking for
// another method shows the shipped cycle file under it, without balances.
func (s *Server) dashboardPool(r *http.Request) (*report.Pool, *live, error) {
	if s.ledger == nil {
		p, err := s.shippedPool(r)
		return p, nil, err
	}
	year, err := strconv.Atoi(r.PathValue("year"))
	if err != nil {
		p, err := s.shippedPool(r)
		return p, nil, err
	}
	q := r.URL.Query()
	asOf, err := solidarity.ParseAsOf(q.Get("as_of")) // the whole day counts, as on the API and the CLI
	if err != nil {
		return nil, nil, err
	}
	b, err := s.balances(r.Context(), year, asOf)
	switch {
	case solidarity.ErrorCode(err) == solidarity.ENOTFOUND:
		p, err := s.shippedPool(r) // not in the ledger: the shipped file, if any
		return p, nil, err
	case err != nil:
		return nil, nil, err
	}
	if m := q.Get("method"); m != "" {
		pm, err := apportion.ParseMethod(m)
		if err != nil {
			return nil, nil, err
		}
		if string(pm) != b.Pool.Method {
			p, err := s.shippedPool(r)
			return p, nil, err
		}
	}
	l := &live{Balances: b, byState: map[string]*report.StateBalance{}}
	for i := range b.States {
		l.byState[b.States[i].State] = &b.States[i]
	}
	if q.Get("as_of") == "" {
		b.Pool.AsOf = "" // "now" is not a chosen date
	}
	return b.Pool, l, nil
}

// stateForms are the forms of a state page for a user who may write for the state.
type stateForms struct {
	Pledge, Deliver             bool
	PledgeAction, DeliverAction string
	PledgeKey, DeliverKey       string // idempotency keys: one submission, one entry
	PledgeTypes                 []solidarity.PledgeType
	DeliveryTypes               []solidarity.EntryType
}

func (s *Server) statePage(r *http.Request) (*statePage, error) {
	p, l, err := s.dashboardPool(r)
	if err != nil {
		return nil, err
	}
	st, ok := p.State(stateCode(r.PathValue("state")))
	if !ok {
		return nil, &solidarity.Error{Code: solidarity.ENOTFOUND, Field: "state",
			Message: fmt.Sprintf("%q is not a participating state of the %d cycle", r.PathValue("state"), p.Cycle.Year)}
	}
	v, err := viewOf(r, p)
	if err != nil {
		return nil, err
	}
	page := &statePage{base: s.base(r, "%s — %s", i18n.FromRequest(r).T(st.Name), p.Cycle.Title), Pool: p, State: st, View: v, Live: l}
	if l == nil {
		return page, nil
	}
	page.Balance = l.State(st.State)
	m, year := solidarity.MemberState(st.State), p.Cycle.Year
	now := s.ledger.Now()
	page.PaceSVG = paceSVG(page.L, p, page.Balance)
	if page.Days, err = s.deliveredOverTime(r.Context(), year, m); err != nil {
		return nil, err
	}
	page.DeliveredSVG = pledgedDeliveredChart(page.L, p, st, page.Days, now)
	// The role table decides which forms to show; the service decides again on post.
	u := solidarity.UserFromContext(r.Context())
	if f := (stateForms{Pledge: solidarity.Can(u, solidarity.WritePledge, m), Deliver: solidarity.Can(u, solidarity.WriteDelivery, m)}); f.Pledge || f.Deliver {
		f.PledgeAction = fmt.Sprintf("/pool/%d/states/%s/pledges", year, m)
		f.DeliverAction = fmt.Sprintf("/pool/%d/states/%s/deliveries", year, m)
		f.PledgeKey, f.DeliverKey = "form-"+rand.Text(), "form-"+rand.Text()
		f.PledgeTypes = solidarity.PledgeTypes()
		f.DeliveryTypes = solidarity.DeliveryTypes()
		page.Forms = &f
	}
	es, err := s.ledger.Entries(r.Context(), solidarity.EntryFilter{Cycle: &year, State: &m, Limit: solidarity.DefaultPageLimit})
	switch {
	case solidarity.ErrorCode(err) == solidarity.EUNAUTHORIZED:
		page.EntriesMsg = page.L.T("The entries of a state are shown to its officer, the coordinator and auditors; the figures above are published.")
	case err != nil:
		return nil, err
	}
	if err == nil {
		if page.Offsets, err = s.offsetEntries(r.Context(), year, m); err != nil {
			return nil, err
		}
	}
	if st.Benefitting {
		if page.Receipts, err = s.receiptsOf(r.Context(), u, page.L, m, year); err != nil {
			return nil, err
		}
	}
	for _, e := range es {
		if _, _, delivery := solidarity.DeliveryOf(e.Type); delivery || e.Type == solidarity.PledgeMade || e.Type == solidarity.PledgeChanged {
			page.Entries = append(page.Entries, e)
		}
	}
	return page, nil
}

// formTarget reads {year} and {state} of a form post.
func formTarget(r *http.Request) (int, solidarity.MemberState, error) {
	year, err := pathYear(r)
	if err != nil {
		return 0, "", err
	}
	m, err := pathState(r)
	return year, m, err
}

// formAmount reads the amount field: whole persons, or euro with up to two decimals.
func formAmount(v string, inPersons bool) (int64, solidarity.Cents, error) {
	v = strings.TrimSpace(v)
	if inPersons {
		n, err := strconv.ParseInt(strings.NewReplacer(",", "", "_", "", " ", "").Replace(v), 10, 64)
		if err != nil {
			return 0, 0, &solidarity.Error{Code: solidarity.EINVALID, Field: "amount", Message: fmt.Sprintf("%q is not a whole number of persons", v)}
		}
		return n, 0, nil
	}
	c, err := cyclefile.ParseEUR(v)
	if err != nil {
		return 0, 0, &solidarity.Error{Code: solidarity.EINVALID, Field: "amount", Message: err.Error()}
	}
	return 0, c, nil
}

func (s *Server) handlePledgeForm(w http.ResponseWriter, r *http.Request) {
	s.postForm(w, r, func(year int, m solidarity.MemberState) (*solidarity.Entry, bool, error) {
		t := solidarity.PledgeType(r.PostForm.Get("type"))
		p := solidarity.PledgePayload{Type: t}
		if t.Valid() && t != solidarity.NoPledge {
			var err error
			if p.Relocations, p.EURCents, err = formAmount(r.PostForm.Get("amount"), t.InUnits()); err != nil {
				return nil, false, err
			}
		}
		return s.ledger.Pledge(r.Context(), year, m, p, r.PostForm.Get("idempotency_key"))
	})
}

func (s *Server) handleDeliveryForm(w http.ResponseWriter, r *http.Request) {
	s.postForm(w, r, func(year int, m solidarity.MemberState) (*solidarity.Entry, bool, error) {
		t := solidarity.EntryType(r.PostForm.Get("type"))
		p := solidarity.DeliveryPayload{Reference: strings.TrimSpace(r.PostForm.Get("reference")), OverDelivery: r.PostForm.Get("over_delivery") != ""}
		d, _, ok := solidarity.DeliveryOf(t)
		var err error
		if p.Relocations, p.EURCents, err = formAmount(r.PostForm.Get("amount"), ok && d.Unit() == solidarity.Persons); err != nil {
			return nil, false, err
		}
		return s.ledger.Deliver(r.Context(), year, m, t, p, r.PostForm.Get("idempotency_key"))
	})
}

// postForm runs a form post of a state page: the public is sent to log in; a refusal
// of the service is 403; a rule broken shows the page again with the reason; success
// redirects to the page.
func (s *Server) postForm(w http.ResponseWriter, r *http.Request, do func(year int, m solidarity.MemberState) (*solidarity.Entry, bool, error)) {
	if solidarity.UserFromContext(r.Context()) == nil {
		s.toLogin(w, r)
		return
	}
	year, m, err := formTarget(r)
	if err != nil {
		s.pageError(w, r, err)
		return
	}
	if err := r.ParseForm(); err != nil {
		s.pageError(w, r, &solidarity.Error{Code: solidarity.EINVALID, Message: "cannot read the form"})
		return
	}
	if err := checkKey(r.PostForm.Get("idempotency_key")); err != nil {
		s.pageError(w, r, err)
		return
	}
	e, replayed, err := do(year, m)
	pageURL := fmt.Sprintf("/pool/%d/states/%s", year, m)
	switch code := solidarity.ErrorCode(err); code {
	case "":
		if !replayed {
			s.metrics.appends.WithLabelValues(string(e.Type)).Inc()
		}
		http.Redirect(w, r, pageURL+"#ledger", http.StatusSeeOther)
	case solidarity.EUNAUTHORIZED, solidarity.EINTERNAL:
		s.pageServiceError(w, r, err)
	default:
		// Show the page again (as a GET of it would) with what was wrong.
		r2 := r.Clone(r.Context())
		r2.Method, r2.URL = http.MethodGet, &url.URL{Path: pageURL}
		r2.SetPathValue("year", itoa(year))
		r2.SetPathValue("state", string(m))
		page, perr := s.statePage(r2)
		if perr != nil {
			s.pageError(w, r, err)
			return
		}
		page.FormError = solidarity.ErrorMessage(err)
		s.render(w, r, HTTPStatus(code), "state.html", page)
	}
}
