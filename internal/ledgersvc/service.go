// Package ledgersvc is the solidarity ledger service: every write to the record of the
// pool goes through it. It checks who may do what (the role table in the root package,
// deny by default), applies the legal rules that decide whether an entry may be
// written at all (Arts. 57, 60–63, 69), and derives balances from the entries.
//
// Rule checks run inside the store's write transaction (Store.Append's check), so two
// clients cannot both pass a check that only one of them may pass. Checks and
// balances work on the exact pool (pool.Result, pool.Tri) computed by the server's
// catalog, which reads no file; report renders the balances at the edges.
//
//	service.go     the writes and their rules; Entries
//	verify.go      Verify (auditors, the coordinator); the public summary and download
//	balances.go    Balances (exact), as of any time
//	relocation.go  relocation room for the case flow and the matching
//	state.go       what the ledger says of a cycle; cache.go keeps it between reads
//	auth.go        accounts and credentials
package ledgersvc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"sync/atomic"
	"time"

	"solidarity"
	"solidarity/internal/bound"
	"solidarity/internal/catalog"
	"solidarity/internal/cyclefile"
	"solidarity/ledger"
	"solidarity/pool"
)

// Time limits of the procedures the ledger follows.
const (
	// AssessmentPeriod is the Commission's time to assess a deduction request, Art.
	// 61(3): four weeks (tag V; applied to Art. 62 requests by analogy, tag R).
	AssessmentPeriod = 28 * 24 * time.Hour
	// OffsetReplyPeriod is the time to reply to an offset request, Art. 69(2): 30 days
	// (tag V).
	OffsetReplyPeriod = 30 * 24 * time.Hour
)

// Service implements the ledger operations on a Store.
type Service struct {
	Store   solidarity.Store
	Catalog *catalog.Catalog
	Now     func() time.Time

	verified  atomic.Pointer[ledger.Verification] // the last full verification
	verifying chan struct{}                       // one full verification at a time for cached reads (New)
	states    stateCache                          // the states last read (cache.go)
}

// New returns a service with the real clock.
func New(store solidarity.Store, cat *catalog.Catalog) *Service {
	if cat == nil {
		cat = &catalog.Catalog{}
	}
	return &Service{Store: store, Catalog: cat, Now: time.Now, verifying: make(chan struct{}, 1)}
}

func (s *Service) now() time.Time { return ledger.Normalize(s.Now()) }

func denied(a solidarity.Action, state solidarity.MemberState) error {
	what := string(a)
	if state != "" {
		what += " for " + string(state)
	}
	return &solidarity.Error{Code: solidarity.EUNAUTHORIZED, Message: "not allowed: " + what}
}

// authorize checks the acting user may do a for state.
func authorize(ctx context.Context, a solidarity.Action, state solidarity.MemberState) error {
	if !solidarity.Can(solidarity.UserFromContext(ctx), a, state) {
		return denied(a, state)
	}
	return nil
}

func actor(ctx context.Context) string {
	if u := solidarity.UserFromContext(ctx); u != nil {
		return u.Name
	}
	return "system"
}

func invalid(field, article, format string, args ...any) error {
	return &solidarity.Error{Code: solidarity.EINVALID, Field: field, Article: article, Message: fmt.Sprintf(format, args...)}
}

func conflict(article, format string, args ...any) error {
	return &solidarity.Error{Code: solidarity.ECONFLICT, Article: article, Message: fmt.Sprintf(format, args...)}
}

// append writes e with the rule check, under idemKey.
func (s *Service) append(ctx context.Context, idemKey string, e *solidarity.Entry, payload any, check func(solidarity.View, *state) error) (*solidarity.Entry, bool, error) {
	return s.appendReading(ctx, idemKey, e, payload, nil, check)
}

// appendReading is append with the check's state loaded from the given entry types.
func (s *Service) appendReading(ctx context.Context, idemKey string, e *solidarity.Entry, payload any, types []solidarity.EntryType, check func(solidarity.View, *state) error) (*solidarity.Entry, bool, error) {
	p, err := ledger.Payload(payload)
	if err != nil {
		return nil, false, err
	}
	e.Payload, e.Actor, e.At = p, actor(ctx), s.now()
	return s.Store.Append(ctx, idemKey, e, func(v solidarity.View) error {
		if check == nil {
			return nil
		}
		st, err := s.load(ctx, v, e.Cycle, types...)
		if err != nil {
			return err
		}
		return check(v, st)
	})
}

// CreateCycle records a pool from its cycle file (Art. 57(1)). Coordinator only.
func (s *Service) CreateCycle(ctx context.Context, toml, idemKey string) (*solidarity.Entry, bool, error) {
	if err := authorize(ctx, solidarity.WriteCycle, ""); err != nil {
		return nil, false, err
	}
	c, err := cyclefile.Parse("cycle", []byte(toml))
	if err != nil {
		return nil, false, err
	}
	if err := s.checkDatasets(c); err != nil {
		return nil, false, err
	}
	e := &solidarity.Entry{Cycle: c.Year, Type: solidarity.CycleCreated, LegalBasis: "Art. 57(1) AMMR"}
	return s.append(ctx, idemKey, e, solidarity.CyclePayload{TOML: toml}, func(v solidarity.View, st *state) error {
		if st.cycle != nil {
			return conflict("Art. 57(1) AMMR", "the %d cycle exists already; amend it instead", c.Year)
		}
		return nil
	})
}

// checkDatasets refuses a cycle whose datasets the service's catalog does not hold.
// The catalog resolves only shipped datasets and opens no file, so a cycle naming a
// path on the server is refused before it is recorded, not recorded and then refused
// on every balance.
func (s *Service) checkDatasets(c *solidarity.Cycle) error {
	for _, ref := range []string{c.PopulationData, c.GDPData} {
		if _, err := s.Catalog.Dataset(ref); err != nil {
			return &solidarity.Error{Code: solidarity.EINVALID, File: "cycle", Field: "population/gdp",
				Message: fmt.Sprintf("dataset %q is not a shipped dataset", ref)}
		}
	}
	return nil
}

// AmendCycle replaces the cycle file of an existing pool (the act amended). Coordinator only.
func (s *Service) AmendCycle(ctx context.Context, toml, idemKey string) (*solidarity.Entry, bool, error) {
	if err := authorize(ctx, solidarity.WriteCycle, ""); err != nil {
		return nil, false, err
	}
	c, err := cyclefile.Parse("cycle", []byte(toml))
	if err != nil {
		return nil, false, err
	}
	if err := s.checkDatasets(c); err != nil {
		return nil, false, err
	}
	e := &solidarity.Entry{Cycle: c.Year, Type: solidarity.CycleAmended, LegalBasis: "Art. 57(1) AMMR"}
	return s.append(ctx, idemKey, e, solidarity.CyclePayload{TOML: toml}, func(v solidarity.View, st *state) error {
		if st.cycle == nil {
			return &solidarity.Error{Code: solidarity.ENOTFOUND, Message: fmt.Sprintf("no %d cycle to amend", c.Year)}
		}
		return nil
	})
}

// SetStatus records a state's situation (Art. 11 decision; Arts. 58–59). Coordinator only.
func (s *Service) SetStatus(ctx context.Context, year int, m solidarity.MemberState, p solidarity.StatusPayload, idemKey string) (*solidarity.Entry, bool, error) {
	if err := authorize(ctx, solidarity.WriteStatus, m); err != nil {
		return nil, false, err
	}
	e := &solidarity.Entry{Cycle: year, Type: solidarity.StatusDecided, State: m, LegalBasis: "Art. 11 AMMR; Art. 58 AMMR; Art. 59 AMMR"}
	return s.append(ctx, idemKey, e, p, func(v solidarity.View, st *state) error { return st.participates(m) })
}

// Pledge sets state m's pledge of one type (Art. 56(2), Art. 57(1)); the entry is
// pledge.made the first time and pledge.changed after. Officers pledge for their own
// state; the coordinator for any.
func (s *Service) Pledge(ctx context.Context, year int, m solidarity.MemberState, p solidarity.PledgePayload, idemKey string) (*solidarity.Entry, bool, error) {
	if err := authorize(ctx, solidarity.WritePledge, m); err != nil {
		return nil, false, err
	}
	if err := checkPledge(p); err != nil {
		return nil, false, err
	}
	e := &solidarity.Entry{Cycle: year, Type: solidarity.PledgeMade, State: m, Ref: string(p.Type), LegalBasis: "Art. 56(2) AMMR; Art. 57(1) AMMR"}
	return s.append(ctx, idemKey, e, p, func(v solidarity.View, st *state) error {
		if err := st.participates(m); err != nil {
			return err
		}
		if _, ok := st.pledges[pledgeKey{m, p.Type}]; ok {
			e.Type = solidarity.PledgeChanged
		}
		return nil
	})
}

func checkPledge(p solidarity.PledgePayload) error { return p.Validate() }

func checkExtent(p solidarity.DeductionPayload) error {
	n := 0
	if p.Full {
		n++
	}
	if p.Fraction != "" {
		n++
		// bound.Rat, not big.Rat.SetString: "1e-1000000" would cost 32 ms and 0.7 MB (issue 12).
		r, err := bound.Rat("fraction", p.Fraction, true, bound.Numbers{})
		if err != nil {
			return err
		}
		if r.Sign() <= 0 || r.Cmp(big.NewRat(1, 1)) > 0 {
			return invalid("fraction", "Art. 61 AMMR; Art. 62 AMMR", "a partial deduction is a fraction in (0, 1], got %q", p.Fraction)
		}
	}
	if p.Relocations != 0 {
		n++
		if err := solidarity.CheckPersons("relocations", "Art. 61 AMMR; Art. 62 AMMR", p.Relocations, 1); err != nil {
			return err
		}
	}
	if n != 1 {
		return invalid("full", "Art. 61 AMMR; Art. 62 AMMR", "a deduction is exactly one of full, fraction or relocations")
	}
	return nil
}

// RequestDeduction records a state's request for a partial or full deduction (Arts.
// 61(1), 62(1): "at any time"). The entry's Ref identifies the request.
func (s *Service) RequestDeduction(ctx context.Context, year int, m solidarity.MemberState, p solidarity.DeductionPayload, idemKey string) (*solidarity.Entry, bool, error) {
	if err := authorize(ctx, solidarity.RequestDeduct, m); err != nil {
		return nil, false, err
	}
	if p.Article != "Art. 61" && p.Article != "Art. 62" {
		return nil, false, invalid("article", "Art. 61 AMMR; Art. 62 AMMR", "a deduction is requested under Art. 61 or Art. 62, not %q", p.Article)
	}
	if err := checkExtent(p); err != nil {
		return nil, false, err
	}
	p.Granted, p.Act = false, ""
	e := &solidarity.Entry{Cycle: year, Type: solidarity.DeductionRequested, State: m, LegalBasis: p.Article + "(1) AMMR"}
	return s.append(ctx, idemKey, e, p, func(v solidarity.View, st *state) error {
		if err := st.participates(m); err != nil {
			return err
		}
		e.Ref = fmt.Sprintf("DED-%d-%s-%d", year, m, st.count(solidarity.DeductionRequested, m)+1)
		return nil
	})
}

// AssessDeduction records the Commission's assessment of request ref (Art. 61(3), due
// four weeks after the request). Coordinator's team only.
func (s *Service) AssessDeduction(ctx context.Context, year int, ref string, p solidarity.AssessmentPayload, idemKey string) (*solidarity.Entry, bool, error) {
	if err := authorize(ctx, solidarity.AssessDeduct, ""); err != nil {
		return nil, false, err
	}
	e := &solidarity.Entry{Cycle: year, Type: solidarity.DeductionAssessed, Ref: ref, LegalBasis: "Art. 61(3) AMMR"}
	return s.append(ctx, idemKey, e, p, func(v solidarity.View, st *state) error {
		req, ok := st.byRef[solidarity.DeductionRequested][ref]
		if !ok {
			return &solidarity.Error{Code: solidarity.ENOTFOUND, Field: "ref", Article: "Art. 61(3) AMMR", Message: fmt.Sprintf("no deduction request %q in the %d cycle", ref, year)}
		}
		if _, done := st.byRef[solidarity.DeductionAssessed][ref]; done {
			return conflict("Art. 61(3) AMMR", "request %s is assessed already", ref)
		}
		e.State = req.State
		return nil
	})
}

// DecideDeduction records the Council's implementing act on request ref (Art. 61(4)).
// A decision needs a request; a granted decision becomes a dated deduction.
func (s *Service) DecideDeduction(ctx context.Context, year int, ref string, p solidarity.DeductionPayload, idemKey string) (*solidarity.Entry, bool, error) {
	if err := authorize(ctx, solidarity.DecideDeduct, ""); err != nil {
		return nil, false, err
	}
	if p.Act == "" {
		return nil, false, invalid("act", "Art. 61(4) AMMR", "a decision needs the Council implementing act that took it")
	}
	if p.Granted {
		if err := checkExtent(p); err != nil {
			return nil, false, err
		}
	}
	e := &solidarity.Entry{Cycle: year, Type: solidarity.DeductionDecided, Ref: ref, LegalBasis: "Art. 61(4) AMMR"}
	return s.append(ctx, idemKey, e, p, func(v solidarity.View, st *state) error {
		req, ok := st.byRef[solidarity.DeductionRequested][ref]
		if !ok {
			return conflict("Art. 61(4) AMMR", "no deduction request %q in the %d cycle: the Council decides on a request", ref, year)
		}
		if _, done := st.byRef[solidarity.DeductionDecided][ref]; done {
			return conflict("Art. 61(4) AMMR", "request %s is decided already", ref)
		}
		e.State = req.State
		return nil
	})
}

// RequestOffset records a benefitting state's request that counterpart take
// responsibility for applications instead of relocations (Art. 63(1), Art. 69(1)). It
// is refused unless relocation pledges reach half the Commission-proposed number.
func (s *Service) RequestOffset(ctx context.Context, year int, m solidarity.MemberState, p solidarity.OffsetPayload, idemKey string) (*solidarity.Entry, bool, error) {
	return s.offset(ctx, year, m, p, idemKey, solidarity.OffsetRequested)
}

// OfferOffset records a contributing state's offer to take responsibility instead of
// relocations (Art. 63(2)); refused unless 63(2)(a) or (b) holds.
func (s *Service) OfferOffset(ctx context.Context, year int, m solidarity.MemberState, p solidarity.OffsetPayload, idemKey string) (*solidarity.Entry, bool, error) {
	return s.offset(ctx, year, m, p, idemKey, solidarity.OffsetOffered)
}

func (s *Service) offset(ctx context.Context, year int, m solidarity.MemberState, p solidarity.OffsetPayload, idemKey string, t solidarity.EntryType) (*solidarity.Entry, bool, error) {
	if err := authorize(ctx, solidarity.RequestOffset, m); err != nil {
		return nil, false, err
	}
	if err := p.Validate(); err != nil {
		return nil, false, err
	}
	if p.Counterpart == m {
		return nil, false, invalid("counterpart", "Art. 69(1) AMMR", "the counterpart must be another Member State")
	}
	article := "Art. 63(1) AMMR; Art. 69 AMMR"
	if t == solidarity.OffsetOffered {
		article = "Art. 63(2) AMMR; Art. 69 AMMR"
	}
	e := &solidarity.Entry{Cycle: year, Type: t, State: m, LegalBasis: article}
	return s.append(ctx, idemKey, e, p, func(v solidarity.View, st *state) error {
		if err := st.participates(m); err != nil {
			return err
		}
		if err := st.participates(p.Counterpart); err != nil {
			return err
		}
		res, err := s.compute(ctx, v, st, time.Time{})
		if err != nil {
			return err
		}
		benefitting, contributing := m, p.Counterpart
		if t == solidarity.OffsetOffered {
			benefitting, contributing = p.Counterpart, m
		}
		if !res.status(benefitting).Benefitting {
			return conflict(article, "%s is not a benefitting state of the %d cycle", benefitting, year)
		}
		switch t {
		case solidarity.OffsetRequested:
			if res.Union.BenefittingMayRequest != pool.Yes {
				return conflict("Art. 63(1) AMMR", "relocation pledges do not (or are not known to) reach 50 %% of the Commission-proposed number: offsets may not be requested (%s)", res.Union.BenefittingMayRequest)
			}
		case solidarity.OffsetOffered:
			if res.mayOffer(contributing) != pool.Yes {
				return conflict("Art. 63(2) AMMR", "%s may not offer offsets: neither the Art. 63(1) threshold nor its own 50 %% relocation pledge is known to be met", contributing)
			}
		}
		e.Ref = fmt.Sprintf("OFF-%d-%s-%d", year, m, st.count(t, m)+1)
		return nil
	})
}

// ReplyOffset records the reply to offset request or offer ref within 30 days (Art.
// 69(2)): the counterpart accepts up to the number asked.
func (s *Service) ReplyOffset(ctx context.Context, year int, ref string, p solidarity.ReplyPayload, idemKey string) (*solidarity.Entry, bool, error) {
	if err := p.Validate(); err != nil {
		return nil, false, err
	}
	e := &solidarity.Entry{Cycle: year, Type: solidarity.OffsetReplied, Ref: ref, LegalBasis: "Art. 69(2) AMMR"}
	var reqEntry *solidarity.Entry
	var req solidarity.OffsetPayload
	// Who may reply depends on the request, so the check happens inside the
	// transaction; authorisation is still decided before anything is written.
	return s.append(ctx, idemKey, e, p, func(v solidarity.View, st *state) error {
		reqEntry = st.byRef[solidarity.OffsetRequested][ref]
		if reqEntry == nil {
			reqEntry = st.byRef[solidarity.OffsetOffered][ref]
		}
		if reqEntry == nil {
			return &solidarity.Error{Code: solidarity.ENOTFOUND, Field: "ref", Message: fmt.Sprintf("no offset request or offer %q in the %d cycle", ref, year)}
		}
		if err := json.Unmarshal(reqEntry.Payload, &req); err != nil {
			return err
		}
		if err := authorize(ctx, solidarity.ReplyOffset, req.Counterpart); err != nil {
			return err
		}
		e.State = req.Counterpart
		if _, done := st.byRef[solidarity.OffsetReplied][ref]; done {
			return conflict("Art. 69(2) AMMR", "%s has been answered already", ref)
		}
		if due := reqEntry.At.Add(OffsetReplyPeriod); e.At.After(due) {
			return conflict("Art. 69(2) AMMR", "the reply to %s was due by %s (30 days)", ref, due.Format(time.DateOnly))
		}
		if p.Accepted < 0 || p.Accepted > req.Applications {
			return invalid("accepted", "Art. 69(2) AMMR", "accepted must be between 0 and the %d applications asked", req.Applications)
		}
		return nil
	})
}

// Deliver records solidarity delivered by state m as an entry of type t, one of the
// deliveries of the measures (solidarity.Measures): relocations
// (relocation.delivered), a payment (payment.made) or alternative measures
// (alternative.delivered). Beyond the state's pledges of the measures delivered as t
// it needs OverDelivery.
func (s *Service) Deliver(ctx context.Context, year int, m solidarity.MemberState, t solidarity.EntryType, p solidarity.DeliveryPayload, idemKey string) (*solidarity.Entry, bool, error) {
	if err := authorize(ctx, solidarity.WriteDelivery, m); err != nil {
		return nil, false, err
	}
	if p.Transfer != nil {
		// A transfer is recorded by the case flow with the cases it moves, never by hand.
		return nil, false, invalid("transfer", "Art. 68 AMMR", "a relocation transfer is recorded by the case flow (an event on the cases), not as a delivery")
	}
	if err := p.Validate(t); err != nil {
		return nil, false, err
	}
	d, _, _ := solidarity.DeliveryOf(t) // a delivery: Validate says so
	article := d.Article.String()
	e := &solidarity.Entry{Cycle: year, Type: t, State: m, LegalBasis: article}
	return s.appendReading(ctx, idemKey, e, p, deliveryTypes, func(v solidarity.View, st *state) error {
		if err := st.participates(m); err != nil {
			return err
		}
		if p.OverDelivery {
			return nil
		}
		tot, err := v.Totals(ctx, year)
		if err != nil {
			return err
		}
		var done solidarity.Totals
		for _, x := range tot {
			if x.State == m {
				done = x
			}
		}
		c, err := st.assemble()
		if err != nil {
			return err
		}
		// The pledges of the measures delivered as t, in the unit of t.
		var pledged int64
		ok := true
		for _, pl := range c.Pledges {
			if pl.State != m || !ok {
				continue
			}
			if ms, known := solidarity.MeasureOf(pl.Type); known && ms.Delivery == d {
				pledged, ok = solidarity.AddChecked(pledged, pl.Amount())
			}
		}
		if !ok {
			return solidarity.Overflow(solidarity.EINVALID, fmt.Sprintf("%s's pledges", m))
		}
		have, add := done.Delivered.Of(t), p.Amount(t)
		// Checked: a sum that wrapped would pass any pledge (issue 12).
		total, ok := solidarity.AddChecked(have, add)
		if !ok {
			return solidarity.Overflow(solidarity.ECONFLICT, fmt.Sprintf("%s's delivered total", m))
		}
		if total > pledged {
			return conflict(article, "%s would deliver %d in total against a pledge of %d of that kind; set over_delivery to record more than the pledge", m, total, pledged)
		}
		return nil
	})
}

// Entries lists ledger entries. The coordinator and auditors read the whole ledger;
// an officer reads its own state's entries.
func (s *Service) Entries(ctx context.Context, f solidarity.EntryFilter) ([]*solidarity.Entry, error) {
	f, err := readable(ctx, f)
	if err != nil {
		return nil, err
	}
	return s.Store.Entries(ctx, f)
}

// CountEntries counts the entries Entries would list, its limit aside: with the same
// authorisation, so that an officer's total counts its own state's entries only.
func (s *Service) CountEntries(ctx context.Context, f solidarity.EntryFilter) (int64, error) {
	f, err := readable(ctx, f)
	if err != nil {
		return 0, err
	}
	return s.Store.CountEntries(ctx, f)
}

// readable narrows f to what the user of ctx may read, or refuses.
func readable(ctx context.Context, f solidarity.EntryFilter) (solidarity.EntryFilter, error) {
	u := solidarity.UserFromContext(ctx)
	if !solidarity.Can(u, solidarity.ReadLedger, "") {
		if u == nil || !solidarity.Can(u, solidarity.ReadStateDetail, u.State) || (f.State != nil && *f.State != u.State) {
			return f, denied(solidarity.ReadLedger, "")
		}
		f.State = &u.State
	}
	return f, nil
}

// Cycles returns the years that have a cycle in the ledger.
func (s *Service) Cycles(ctx context.Context) ([]int, error) {
	es, err := s.Store.Entries(ctx, solidarity.EntryFilter{Type: ptr(solidarity.CycleCreated), Limit: solidarity.MaxPageLimit})
	if err != nil {
		return nil, err
	}
	var years []int
	for _, e := range es {
		years = append(years, e.Cycle)
	}
	slices.Sort(years)
	return years, nil
}

func ptr[T any](v T) *T { return &v }

var errNoCycle = errors.New("no cycle")
