package client

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"solidarity"
	"solidarity/arrival"
	"solidarity/cases"
	"solidarity/internal/casesvc"
)

// The client is the case flow of the root package's interfaces, as casesvc is on a
// store. The API answers a write with what a page needs, not with the service's
// whole result: a registration's cases carry their ID and family and its entry its
// sequence number; the cases an event moved carry what a case list shows, not their
// flow (read a case for that).
var (
	_ solidarity.CaseService[*arrival.List, *casesvc.Registered, casesvc.EventRequest, *casesvc.Applied] = (*Client)(nil)
	_ solidarity.CaseReader[casesvc.CaseRow, *casesvc.CaseView, *arrival.Person, *casesvc.Determination] = (*Client)(nil)
)

// Register implements solidarity.CaseService.
func (c *Client) Register(ctx context.Context, l *arrival.List, idemKey string) (*casesvc.Registered, error) {
	return c.register(ctx, l, idemKey, false)
}

// RegisterNewLanding implements solidarity.CaseService.
func (c *Client) RegisterNewLanding(ctx context.Context, l *arrival.List, idemKey string) (*casesvc.Registered, error) {
	return c.register(ctx, l, idemKey, true)
}

// registration is the answer of the arrivals route.
type registration struct {
	Arrival  *solidarity.Arrival      `json:"arrival"`
	Families []solidarity.FamilyCases `json:"families"`
	EntrySeq int64                    `json:"entry_seq"`
}

// register sends the list in its JSON import form (arrival.List.WriteJSON, which
// checks it first): the persons travel in the request body only.
func (c *Client) register(ctx context.Context, l *arrival.List, idemKey string, newLanding bool) (*casesvc.Registered, error) {
	if l == nil {
		return nil, &solidarity.Error{Code: solidarity.EINVALID, Message: "no list"}
	}
	var body bytes.Buffer
	if err := l.WriteJSON(&body); err != nil {
		return nil, err
	}
	path := Arrivals
	if newLanding {
		path += "?new_landing=true"
	}
	var out registration
	replayed, err := c.do(ctx, http.MethodPost, path, rawJSON(body.Bytes()), idemKey, &out)
	if err != nil {
		return nil, err
	}
	reg := &casesvc.Registered{Arrival: out.Arrival, Entry: &solidarity.Entry{Seq: out.EntrySeq}, Replayed: replayed}
	for _, f := range out.Families {
		for _, id := range f.Cases {
			reg.Cases = append(reg.Cases, &solidarity.CaseRecord{ID: id, Family: f.Family})
		}
	}
	return reg, nil
}

// summary is a case as the API lists it (web.CaseSummary).
type summary struct {
	ID          solidarity.CaseID      `json:"id"`
	Arrival     solidarity.ArrivalID   `json:"arrival"`
	Family      solidarity.FamilyID    `json:"family"`
	Benefitting solidarity.MemberState `json:"benefitting_state"`
	Allocated   solidarity.MemberState `json:"allocated_state"`
	Responsible solidarity.MemberState `json:"responsible_state"`
	State       cases.State            `json:"state"`
	NextDue     time.Time              `json:"next_due"`
	Opened      time.Time              `json:"opened"`
	Closed      time.Time              `json:"closed"`
	Erased      time.Time              `json:"erased"`
	Version     int64                  `json:"version"`
}

func (s summary) record() *solidarity.CaseRecord {
	return &solidarity.CaseRecord{ID: s.ID, Arrival: s.Arrival, Family: s.Family, Benefitting: s.Benefitting,
		Allocated: s.Allocated, Responsible: s.Responsible, State: s.State, NextDue: s.NextDue,
		Opened: s.Opened, Closed: s.Closed, Erased: s.Erased, Version: s.Version}
}

// moved is the answer of a case write (web.Moved).
type moved struct {
	Entry *solidarity.Entry `json:"entry"`
	Cases []summary         `json:"cases"`
}

func (c *Client) move(ctx context.Context, path string, body any, idemKey string) (*casesvc.Applied, error) {
	var out moved
	replayed, err := c.do(ctx, http.MethodPost, path, body, idemKey, &out)
	if err != nil {
		return nil, err
	}
	a := &casesvc.Applied{Entry: out.Entry, Cases: make([]*solidarity.CaseRecord, len(out.Cases)), Replayed: replayed}
	for i, s := range out.Cases {
		a.Cases[i] = s.record()
	}
	return a, nil
}

// eventBody is the body of the events route (web.EventRequest).
type eventBody struct {
	Event  cases.Event            `json:"event"`
	At     string                 `json:"at,omitempty"`
	Target solidarity.MemberState `json:"target,omitempty"`
	Family bool                   `json:"family,omitempty"`
	Note   string                 `json:"note,omitempty"`
}

// Apply implements solidarity.CaseService. The API records an event on one case (or
// its family): more cases (Also) and a determination's outcome are written by the
// server's own flows, not sent.
func (c *Client) Apply(ctx context.Context, req casesvc.EventRequest, idemKey string) (*casesvc.Applied, error) {
	if len(req.Also) > 0 || req.Determination != nil {
		return nil, &solidarity.Error{Code: solidarity.EINVALID, Message: "the API records an event on one case or its family, without further cases or a determination"}
	}
	body := eventBody{Event: req.Event, Target: req.Target, Family: req.Family, Note: req.Note}
	if !req.At.IsZero() {
		body.At = req.At.Format(time.RFC3339Nano)
	}
	return c.move(ctx, Path(CaseEvents, string(req.Case)), body, idemKey)
}

// Assign implements solidarity.CaseService.
func (c *Client) Assign(ctx context.Context, id solidarity.CaseID, m solidarity.MemberState, idemKey string) (*casesvc.Applied, error) {
	body := struct {
		State solidarity.MemberState `json:"state"`
	}{m}
	return c.move(ctx, Path(CaseAllocation, string(id)), body, idemKey)
}

// apiPage is the largest page of the case list route (a variable so that a test
// walks several pages).
var apiPage = 1000

// CaseRows implements solidarity.CaseReader: the list route's pages, up to f.Limit
// cases (0: 1000, as a store reads it), and each case read whole, for its record
// (the list has no flow) and its next time limit (the list's next_due does not say
// whether it ends on a day or at an instant): one request per case. A filter the
// route does not take (closing, erasure, due dates) is EINVALID.
func (c *Client) CaseRows(ctx context.Context, f solidarity.CaseFilter) ([]casesvc.CaseRow, error) {
	if f.ClosedBefore != nil || f.NotErased || f.DueBefore != nil || f.ConsequenceBefore != nil {
		return nil, &solidarity.Error{Code: solidarity.EINVALID, Message: "the API lists cases by arrival, family, state and open only"}
	}
	want := f.Limit
	if want <= 0 {
		want = 1000
	}
	var rows []casesvc.CaseRow
	after := f.After
	for len(rows) < want {
		q := url.Values{}
		if after != "" {
			q.Set("after", string(after))
		}
		if f.Arrival != nil {
			q.Set("arrival", string(*f.Arrival))
		}
		if f.Family != nil {
			q.Set("family", string(*f.Family))
		}
		if f.Involving != nil {
			q.Set("state", string(*f.Involving))
		}
		if f.Open {
			q.Set("open", "true")
		}
		q.Set("limit", strconv.Itoa(min(apiPage, want-len(rows))))
		var page struct {
			Cases     []summary          `json:"cases"`
			NextAfter *solidarity.CaseID `json:"next_after"`
		}
		if _, err := c.do(ctx, http.MethodGet, Cases+"?"+q.Encode(), nil, "", &page); err != nil {
			return nil, err
		}
		for _, s := range page.Cases {
			v, err := c.Case(ctx, s.ID)
			if err != nil {
				return nil, err
			}
			row := casesvc.CaseRow{Record: v.Record}
			if len(v.Dues) > 0 {
				row.Next = &v.Dues[0] // the case's next limit ends first (casesvc.Service.Next)
			}
			rows = append(rows, row)
		}
		if page.NextAfter == nil {
			break
		}
		after = *page.NextAfter
	}
	return rows, nil
}

// Case implements solidarity.CaseReader.
func (c *Client) Case(ctx context.Context, id solidarity.CaseID) (*casesvc.CaseView, error) {
	var v casesvc.CaseView
	if _, err := c.do(ctx, http.MethodGet, Path(Case, string(id)), nil, "", &v); err != nil {
		return nil, err
	}
	return &v, nil
}

// Person implements solidarity.CaseReader: the server records the read, with
// purpose, before it answers.
func (c *Client) Person(ctx context.Context, id solidarity.CaseID, purpose string) (*arrival.Person, error) {
	path := Path(CasePerson, string(id))
	if purpose != "" {
		path += "?purpose=" + url.QueryEscape(purpose)
	}
	var p arrival.Person
	if _, err := c.do(ctx, http.MethodGet, path, nil, "", &p); err != nil {
		return nil, err
	}
	return &p, nil
}

// Determine implements solidarity.CaseReader.
func (c *Client) Determine(ctx context.Context, id solidarity.CaseID) (*casesvc.Determination, error) {
	var d casesvc.Determination
	if _, err := c.do(ctx, http.MethodGet, Path(CaseDetermination, string(id)), nil, "", &d); err != nil {
		return nil, err
	}
	return &d, nil
}
