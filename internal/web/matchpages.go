package web

import (
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"solidarity"
	"solidarity/internal/casesvc"
)

// The relocation page (issue 5): the coordinator asks the matching engine for a
// proposal for the relocation candidates against a year's pledges, reviews it (a
// table, and an explanation per family), pins or forbids placements and asks again,
// and accepts all or some placements, each an allocation. A proposal reads the
// candidates' personal records (logged), so it is asked for by a form post, never by
// a link; the page shows no personal data.

// mayPropose reports whether u may ask for proposals (the role table: allocation).
func mayPropose(u *solidarity.User) bool { return solidarity.Can(u, solidarity.AssignCase, "") }

// stateOption is a Member State in a select, maybe selected.
type stateOption struct {
	State    solidarity.MemberState
	Selected bool
}

// proposalRow is a family of the proposal: placed (Placement.State set) or not.
type proposalRow struct {
	casesvc.Placement
	Why            string // why the family is not placed, in the page's language
	Anchor         string // the row's id, which the explanation links to
	Pin, Forbid    []stateOption
	Explained      bool
	PinnedOrBarred bool
}

type acceptedRow struct {
	Family solidarity.FamilyID
	Cases  []CaseSummary
	State  solidarity.MemberState
	Error  string
}

type proposalPage struct {
	base
	Years     []int
	Year      int
	Current   int
	Key       string
	Proposal  *casesvc.Proposal
	Rows      []proposalRow
	Explained *explanationView
	Moved     string
	FormError string
	Accepted  []acceptedRow
	Failed    bool
	Excluded  []casesvc.FamilyNote // the proposal's, Why in the page's language
	// Method is the method chosen (casesvc.MethodStatic before any proposal);
	// Hindsight and ExplainedPotential are the proposal's, said in the page's
	// language (proposalview.go).
	Method             string
	Hindsight          *hindsightView
	ExplainedPotential string
}

// proposalPageFor is the page without a proposal: the year select.
func (s *Server) proposalPageFor(r *http.Request) (*proposalPage, error) {
	if u := solidarity.UserFromContext(r.Context()); !mayPropose(u) {
		return nil, &solidarity.Error{Code: solidarity.EUNAUTHORIZED, Message: "not allowed: " + string(solidarity.AssignCase)}
	}
	now := s.cases.Now().UTC().Year()
	page := &proposalPage{base: s.base(r, "Relocation proposal"), Year: now, Current: now, Key: formKey(), Method: casesvc.MethodStatic}
	years, err := s.ledger.Cycles(r.Context())
	if err != nil {
		return nil, err
	}
	page.Years = slices.Compact(slices.Sorted(slices.Values(append(years, now))))
	return page, nil
}

func (s *Server) handleRelocationPage(w http.ResponseWriter, r *http.Request) {
	page, err := s.proposalPageFor(r)
	if err != nil {
		s.pageServiceError(w, r, err)
		return
	}
	if v := r.URL.Query().Get("accepted"); v != "" {
		fams := strings.Split(v, ",")
		if len(fams) > 200 {
			fams = fams[:200]
		}
		for _, f := range fams {
			fam := solidarity.FamilyID(f)
			rs, err := s.cases.Cases(r.Context(), solidarity.CaseFilter{Family: &fam, Limit: solidarity.DefaultPageLimit})
			if err != nil {
				s.pageServiceError(w, r, err)
				return
			}
			row := acceptedRow{Family: fam, Cases: summaries(rs)}
			if len(rs) > 0 {
				row.State = rs[0].Allocated
			}
			page.Accepted = append(page.Accepted, row)
		}
	}
	s.render(w, r, http.StatusOK, "proposal.html", page)
}

// maxForbidValues bounds the forbid checkboxes a form may post (each family × state:
// the service bounds the families overridden, casesvc's maxOverrides).
const maxForbidValues = 2000

// proposalRequest reads the proposal form: the year, the pins (pin-<family>), the
// forbids (forbid=<family>:<state>, one checkbox per placement; forbid-<family>=<state>,
// several, as the form had it before) and the family to explain.
func proposalRequest(f url.Values) (casesvc.ProposalRequest, error) {
	var req casesvc.ProposalRequest
	if v := f.Get("year"); v != "" {
		y, err := strconv.Atoi(v)
		if err != nil {
			return req, &solidarity.Error{Code: solidarity.EINVALID, Field: "year", Message: "choose a year"}
		}
		req.Year = y
	}
	for k, vs := range f {
		if fam, ok := strings.CutPrefix(k, "pin-"); ok && len(vs) > 0 && vs[0] != "" {
			m, ok := solidarity.ParseMemberState(vs[0])
			if !ok {
				return req, &solidarity.Error{Code: solidarity.EINVALID, Field: k, Message: "choose a Member State"}
			}
			if req.Pins == nil {
				req.Pins = map[solidarity.FamilyID]solidarity.MemberState{}
			}
			req.Pins[solidarity.FamilyID(fam)] = m
		}
		if fam, ok := strings.CutPrefix(k, "forbid-"); ok {
			for _, v := range vs {
				if v == "" {
					continue
				}
				m, ok := solidarity.ParseMemberState(v)
				if !ok {
					return req, &solidarity.Error{Code: solidarity.EINVALID, Field: k, Message: "choose Member States"}
				}
				if req.Forbids == nil {
					req.Forbids = map[solidarity.FamilyID][]solidarity.MemberState{}
				}
				req.Forbids[solidarity.FamilyID(fam)] = append(req.Forbids[solidarity.FamilyID(fam)], m)
			}
		}
	}
	if len(f["forbid"]) > maxForbidValues {
		return req, &solidarity.Error{Code: solidarity.EINVALID, Field: "forbid", Message: "too many placements forbidden at once"}
	}
	for _, v := range f["forbid"] {
		i := strings.LastIndexByte(v, ':')
		if i <= 0 {
			return req, &solidarity.Error{Code: solidarity.EINVALID, Field: "forbid", Message: "a forbidden placement is family:state"}
		}
		m, ok := solidarity.ParseMemberState(v[i+1:])
		if !ok {
			return req, &solidarity.Error{Code: solidarity.EINVALID, Field: "forbid", Message: "choose Member States"}
		}
		fam := solidarity.FamilyID(v[:i])
		if req.Forbids == nil {
			req.Forbids = map[solidarity.FamilyID][]solidarity.MemberState{}
		}
		if !slices.Contains(req.Forbids[fam], m) {
			req.Forbids[fam] = append(req.Forbids[fam], m)
		}
	}
	if v := f.Get("explain"); v != "" {
		req.Explain = []solidarity.FamilyID{solidarity.FamilyID(v)}
	}
	// The service checks the method; an empty one is the static optimum.
	req.Method = f.Get("method")
	return req, nil
}

func (s *Server) handleProposalForm(w http.ResponseWriter, r *http.Request) {
	page, err := s.proposalPageFor(r)
	if err != nil {
		s.pageServiceError(w, r, err)
		return
	}
	if err := r.ParseForm(); err != nil {
		s.pageError(w, r, &solidarity.Error{Code: solidarity.EINVALID, Message: "cannot read the form"})
		return
	}
	req, err := proposalRequest(r.PostForm)
	if err == nil {
		page.Year = req.Year
		if req.Method != "" {
			page.Method = req.Method
		}
		page.Proposal, err = s.cases.Proposal(r.Context(), req)
	}
	if err != nil {
		s.proposalFormError(w, r, page, err)
		return
	}
	s.fillProposal(page, req)
	w.Header().Set("Cache-Control", "no-store")
	s.render(w, r, http.StatusOK, "proposal.html", page)
}

// proposalFormError shows a refusal of a rule or a bad override on the page, and
// anything else (not allowed, internal) as the error page.
func (s *Server) proposalFormError(w http.ResponseWriter, r *http.Request, page *proposalPage, err error) {
	e, ok := errors.AsType[*solidarity.Error](err)
	if !ok || e.Code == solidarity.EINTERNAL || e.Code == solidarity.EUNAUTHORIZED {
		s.pageServiceError(w, r, err)
		return
	}
	page.FormError = e.Message
	if e.Article != "" {
		page.FormError += " (" + e.Article + ")"
	}
	s.render(w, r, HTTPStatus(e.Code), "proposal.html", page)
}

// fillProposal makes the table rows of a proposal.
func (s *Server) fillProposal(page *proposalPage, req casesvc.ProposalRequest) {
	p := page.Proposal
	page.Year, page.Method = p.Year, p.Method
	page.Hindsight = newHindsightView(page.L, p.Hindsight)
	options := func(fam solidarity.FamilyID, benefitting solidarity.MemberState) ([]stateOption, []stateOption) {
		var pin, forbid []stateOption
		for _, st := range p.States {
			if st.State == benefitting {
				continue
			}
			pin = append(pin, stateOption{State: st.State, Selected: req.Pins[fam] == st.State})
			forbid = append(forbid, stateOption{State: st.State, Selected: slices.Contains(req.Forbids[fam], st.State)})
		}
		return pin, forbid
	}
	explain := ""
	if len(req.Explain) > 0 {
		explain = string(req.Explain[0])
		page.Explained = newExplanationView(page.L, p.Explanations[req.Explain[0]])
		if fp, ok := p.ExplainedPotentials[req.Explain[0]]; ok {
			page.ExplainedPotential = potentialLine(page.L, fp)
		}
	}
	for _, pl := range p.Placements {
		row := proposalRow{Placement: pl, Anchor: familyAnchor(pl.Family), Explained: string(pl.Family) == explain}
		row.Pin, row.Forbid = options(pl.Family, pl.Benefitting)
		row.PinnedOrBarred = req.Pins[pl.Family] != "" || len(req.Forbids[pl.Family]) > 0
		page.Rows = append(page.Rows, row)
	}
	for _, u := range p.Unplaced {
		row := proposalRow{Placement: casesvc.Placement{Family: u.Family, Cases: u.Cases, Persons: u.Persons, Benefitting: u.Benefitting},
			Why: whyText(page.L, u.WhyCode, u.Why), Anchor: familyAnchor(u.Family), Explained: string(u.Family) == explain}
		row.Pin, row.Forbid = options(u.Family, u.Benefitting)
		row.PinnedOrBarred = req.Pins[u.Family] != "" || len(req.Forbids[u.Family]) > 0
		page.Rows = append(page.Rows, row)
	}
	for _, x := range p.Excluded {
		x.Why = whyText(page.L, x.WhyCode, x.Why)
		page.Excluded = append(page.Excluded, x)
	}
	var moved []string
	for _, f := range p.Moved {
		moved = append(moved, string(f))
	}
	page.Moved = strings.Join(moved, ", ")
}

// handleAcceptForm allocates the placements ticked (accept=<family>, with
// place-<family>=<state> as the page showed it). All allocated: a redirect to the
// summary; otherwise the page with each family's outcome.
func (s *Server) handleAcceptForm(w http.ResponseWriter, r *http.Request) {
	page, err := s.proposalPageFor(r)
	if err != nil {
		s.pageServiceError(w, r, err)
		return
	}
	if err := r.ParseForm(); err != nil {
		s.pageError(w, r, &solidarity.Error{Code: solidarity.EINVALID, Message: "cannot read the form"})
		return
	}
	key := r.PostForm.Get("idempotency_key")
	if err := checkKey(key); err != nil {
		s.pageError(w, r, err)
		return
	}
	var placements []casesvc.Placement
	for _, f := range r.PostForm["accept"] {
		m, ok := solidarity.ParseMemberState(r.PostForm.Get("place-" + f))
		if !ok {
			continue
		}
		placements = append(placements, casesvc.Placement{Family: solidarity.FamilyID(f), State: m})
	}
	if len(placements) == 0 {
		page.FormError = page.L.T("Tick the placements to accept.")
		s.render(w, r, http.StatusBadRequest, "proposal.html", page)
		return
	}
	res, err := s.cases.Accept(r.Context(), placements, key)
	if err != nil {
		s.proposalFormError(w, r, page, err)
		return
	}
	out := s.acceptResult(res)
	if out.Failed == 0 {
		var fams []string
		for _, a := range res {
			fams = append(fams, string(a.Family))
		}
		http.Redirect(w, r, "/relocation?accepted="+url.QueryEscape(strings.Join(fams, ","))+"#accepted", http.StatusSeeOther)
		return
	}
	page.Failed = true
	for _, a := range res {
		row := acceptedRow{Family: a.Family, State: a.State}
		for _, id := range a.Cases {
			row.Cases = append(row.Cases, CaseSummary{ID: id, Family: a.Family, Allocated: a.State})
		}
		if a.Error != nil {
			row.Error = a.Error.Message
			if a.Error.Article != "" {
				row.Error += " (" + a.Error.Article + ")"
			}
		}
		page.Accepted = append(page.Accepted, row)
	}
	status := http.StatusOK
	if out.Allocated == 0 {
		status = http.StatusConflict
	}
	s.render(w, r, status, "proposal.html", page)
}
