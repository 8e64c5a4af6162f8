package app

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"solidarity"
	"solidarity/cases"
	"solidarity/internal/casesvc"
	"solidarity/internal/cyclefile"
	"solidarity/internal/ledgersvc"
	"solidarity/internal/scenario"
	"solidarity/procedure"
	"solidarity/rules"
)

// DiciottiPledges are the relocation places the demonstration draws on: Ireland's 20
// for the Diciotti in 2018 (spec historical-data.md §3.2, V: "20-25", 16 actually
// went) and the places France, Germany, Spain and Portugal pledged for the Aquarius
// in September 2018 (§4, V: FR 18, DE 15, ES 15, PT 10). They are recorded as
// relocation pledges of the demonstration's own cycle (DemoCycle), never of the real
// 2026 pool (whose per-state pledges are not public).
var DiciottiPledges = []struct {
	State  solidarity.MemberState
	Places int64
}{{"IE", 20}, {"FR", 18}, {"DE", 15}, {"ES", 15}, {"PT", 10}}

// diciottiSeed fixes the generated people of the demonstration.
const diciottiSeed = 2018

// DemoCycle is the demonstration's own cycle: the 2026 pool's figures (the shipped
// 2026 file) under an id of its own, marked demonstration, so that its pledges,
// deliveries and cases never enter the real 2026 figures. The Diciotti's arrivals
// count in it (solidarity.Arrival.Cycle), so that its relocations draw on its pledges.
const DemoCycle = solidarity.DemoCycleBase + 2026%1000

// demoRulesYear is the shipped cycle the demonstration cycle copies.
const demoRulesYear = 2026

// DemoCycleSource returns the cycle file of DemoCycle: the shipped 2026 file with the
// demonstration's id, title and note, marked illustrative and demonstration.
func DemoCycleSource() (string, error) {
	src, err := cyclefile.ShippedSource(demoRulesYear)
	if err != nil {
		return "", err
	}
	header := map[string]string{
		"year":         fmt.Sprint(DemoCycle),
		"title":        fmt.Sprintf("%q", fmt.Sprintf("Demonstration: the Diciotti replay under the %d pool (not a real pool)", demoRulesYear)),
		"illustrative": "true\ndemonstration = true",
		"note":         fmt.Sprintf("%q", fmt.Sprintf("Demonstration data: the %d pool's figures with the places pledged for the Diciotti and the Aquarius in 2018, and generated people. Nothing here is part of the real %d pool.", demoRulesYear, demoRulesYear)),
	}
	lines := strings.Split(string(src), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "[") {
			break // the header ends at the first table
		}
		key, _, ok := strings.Cut(l, " = ")
		if v, known := header[key]; ok && known {
			lines[i] = key + " = " + v
			delete(header, key)
		}
	}
	if len(header) > 0 {
		return "", fmt.Errorf("app: the shipped %d cycle file lacks %v for the demonstration cycle", demoRulesYear, header)
	}
	return strings.Join(lines, "\n"), nil
}

// HasDemo reports whether the ledger holds the demonstration cycle (a demonstration
// was seeded, perhaps only in part).
func HasDemo(ctx context.Context, ledger *ledgersvc.Service) (bool, error) {
	have, err := ledger.Cycles(ctx)
	return slices.Contains(have, DemoCycle), err
}

// SeedDiciotti replays the Diciotti (Catania, August 2018) under today's rules, moved
// to August 2026 (internal/scenario): the four landings registered, each person's
// case taken through screening, application and registration, the procedure track
// and the responsibility determination (rules.Determine), requests to the states the
// criteria designate, and relocation of the candidates drawn on DiciottiPledges, the
// families left at different steps so that the deadline view has running and missed
// time limits. It is idempotent: a step already in a case's history is skipped, so a
// seed interrupted by a crash is finished by the next start.
func SeedDiciotti(ctx context.Context, ledger *ledgersvc.Service, svc *casesvc.Service) error {
	sys := solidarity.NewContextWithUser(ctx, solidarity.System)
	if ok, err := HasDemo(ctx, ledger); err != nil {
		return err
	} else if !ok {
		src, err := DemoCycleSource()
		if err != nil {
			return err
		}
		if _, _, err := ledger.CreateCycle(sys, src, fmt.Sprintf("seed-demo-cycle-%d", DemoCycle)); err != nil {
			return fmt.Errorf("demo cycle: %w", err)
		}
	}
	for _, p := range DiciottiPledges {
		_, _, err := ledger.Pledge(sys, DemoCycle, p.State, solidarity.PledgePayload{Type: solidarity.RelocationApplicants, Relocations: p.Places},
			"seed-diciotti-pledge-"+string(p.State))
		if err != nil {
			return fmt.Errorf("demo pledge %s: %w", p.State, err)
		}
	}
	lists := scenario.Diciotti(diciottiSeed)
	var regs []*casesvc.Registered
	for i := range lists {
		lists[i].Arrival.Cycle = DemoCycle
		r, err := svc.Register(sys, &lists[i], fmt.Sprintf("seed-diciotti-arrival-%d", i+1))
		if err != nil {
			return fmt.Errorf("demo landing %d: %w", i+1, err)
		}
		regs = append(regs, r)
	}
	room := map[solidarity.MemberState]int64{}
	for _, p := range DiciottiPledges {
		room[p.State] = p.Places
	}
	d := &demo{ctx: sys, svc: svc}
	for _, r := range regs {
		at := r.Arrival.At
		// Families first, so that they move together through the relocation steps.
		byFamily := map[solidarity.FamilyID][]*solidarity.CaseRecord{}
		var fams []solidarity.FamilyID
		for _, c := range r.Cases {
			if _, ok := byFamily[c.Family]; !ok {
				fams = append(fams, c.Family)
			}
			byFamily[c.Family] = append(byFamily[c.Family], c)
		}
		// The whole landing is screened, applies and is registered together: one
		// entry per event for all its cases.
		ids := make([]solidarity.CaseID, len(r.Cases))
		for i, c := range r.Cases {
			ids[i] = c.ID
		}
		// Biometrics go to Eurodac within 72 hours of the disembarkation (Art. 24(2)
		// ED) and again within 72 hours of the registration (Art. 15(1) ED).
		d.stepWith(casesvc.EventRequest{Case: ids[0], Also: ids[1:], Event: cases.ScreeningStarted, At: at.Add(20 * time.Hour)})
		d.stepWith(casesvc.EventRequest{Case: ids[0], Also: ids[1:], Event: cases.EurodacRecorded, At: at.Add(30 * time.Hour)})
		d.stepWith(casesvc.EventRequest{Case: ids[0], Also: ids[1:], Event: cases.Applied, At: at.Add(44 * time.Hour)})
		d.stepWith(casesvc.EventRequest{Case: ids[0], Also: ids[1:], Event: cases.Registration, At: at.Add(68 * time.Hour)})
		d.stepWith(casesvc.EventRequest{Case: ids[0], Also: ids[1:], Event: cases.EurodacApplicantRecorded, At: at.Add(80 * time.Hour)})
		d.tracks(r.Cases, at.Add(4*24*time.Hour))
		for _, fam := range fams {
			d.family(byFamily[fam], at, room)
			if d.err != nil {
				return d.err
			}
		}
	}
	return d.err
}

// tracks takes each registered case to its procedure track (Art. 43 APR) or, for a
// person the security check flagged, to the security gate (Art. 16(4) AMMR) and the
// border procedure; the cases of a track share one entry.
func (d *demo) tracks(recs []*solidarity.CaseRecord, at time.Time) {
	byTrack := map[cases.Event][]solidarity.CaseID{}
	for _, c := range recs {
		if d.err != nil {
			return
		}
		v, err := d.svc.Case(d.ctx, c.ID)
		if err != nil {
			d.err = err
			return
		}
		if v.Flow.State != cases.Registered {
			continue // done by an earlier, interrupted seed
		}
		det, err := d.svc.Determine(d.ctx, c.ID)
		if err != nil {
			d.err = err
			return
		}
		if det.Result.Criterion == rules.Security {
			d.step(c.ID, cases.SecurityThreat, at, "")
			d.step(c.ID, cases.ExamineBorder, at.Add(6*24*time.Hour), "")
			continue
		}
		ev := cases.RegularTrack
		if det.Procedure.Track == procedure.Border {
			ev = cases.BorderTrack
		}
		byTrack[ev] = append(byTrack[ev], c.ID)
	}
	for _, ev := range []cases.Event{cases.BorderTrack, cases.RegularTrack} {
		if ids := byTrack[ev]; len(ids) > 0 {
			d.stepWith(casesvc.EventRequest{Case: ids[0], Also: ids[1:], Event: ev, At: at})
		}
	}
}

type demo struct {
	ctx    context.Context
	svc    *casesvc.Service
	err    error
	placed int // families placed, to vary the steps they reach
}

// step records ev on a case at a date unless its history already has it.
func (d *demo) step(id solidarity.CaseID, ev cases.Event, at time.Time, target solidarity.MemberState) {
	d.stepWith(casesvc.EventRequest{Case: id, Event: ev, At: at, Target: target})
}

func (d *demo) stepWith(req casesvc.EventRequest) {
	if d.err != nil {
		return
	}
	v, err := d.svc.Case(d.ctx, req.Case)
	if err != nil {
		d.err = err
		return
	}
	for _, t := range v.Flow.History {
		if t.Event == req.Event && t.At.Equal(req.At) {
			return
		}
	}
	if _, err := d.svc.Apply(d.ctx, req, ""); err != nil {
		d.err = fmt.Errorf("demo: case %s, %s: %w", req.Case, req.Event, err)
	}
}

// family takes one family (or single person) from registration to where the demo
// leaves it.
func (d *demo) family(members []*solidarity.CaseRecord, at time.Time, room map[solidarity.MemberState]int64) {
	day := func(n int) time.Time { return at.Add(time.Duration(n) * 24 * time.Hour) }
	head := members[0]
	det, err := d.svc.Determine(d.ctx, head.ID)
	if err != nil {
		d.err = err
		return
	}
	// The members not excluded by the security gate go on together.
	var rest []*solidarity.CaseRecord
	for _, c := range members {
		v, err := d.svc.Case(d.ctx, c.ID)
		if err != nil {
			d.err = err
			return
		}
		if v.Flow.State == cases.Determination {
			rest = append(rest, c)
		}
	}
	if len(rest) == 0 || d.err != nil {
		return
	}
	head = rest[0]
	found := det.Result.Responsible
	summary := &casesvc.Determined{State: found, Criterion: det.Result.Criterion, Article: det.Result.Article, Regime: det.Result.Regime}
	if found != "" && found != head.Benefitting {
		// The criteria designate another state: a take charge request to it, accepted
		// for every other family so that both transfer and reply time limits show.
		for _, c := range rest {
			d.stepWith(casesvc.EventRequest{Case: c.ID, Event: cases.TakeChargeRequestSent, At: day(21), Target: found, Determination: summary})
			if d.placed%2 == 0 {
				d.step(c.ID, cases.RequestAccepted, day(45), "")
			}
		}
		d.placed++
		return
	}
	// This state is responsible. Relocation candidates are drawn on the pledges.
	n := int64(len(rest))
	m := d.destination(head, room, n)
	if m == "" || det.Procedure.Track == procedure.Border {
		for _, c := range rest {
			d.stepWith(casesvc.EventRequest{Case: c.ID, Event: cases.CriteriaDesignateSelf, At: day(12), Determination: summary})
			ev := cases.ExamineNormal
			if det.Procedure.Track == procedure.Border {
				ev = cases.ExamineBorder
			}
			d.step(c.ID, ev, day(14), "")
		}
		return
	}
	room[m] -= n
	d.step(head.ID, cases.RelocationCandidate, day(6), "")
	d.step(head.ID, cases.RelocationCleared, day(8), "")
	if d.err != nil {
		return
	}
	if m == "PT" {
		// Portugal's share is left to the coordinator: these cleared candidates wait
		// for an allocation (by hand, or from the matching engine's proposal).
		return
	}
	if v, err := d.svc.Case(d.ctx, head.ID); err == nil && v.Record.Allocated == "" {
		if _, err := d.svc.Assign(d.ctx, head.ID, m, ""); err != nil {
			d.err = fmt.Errorf("demo: allocating family of %s to %s: %w", head.ID, m, err)
			return
		}
	}
	// How far each state's families have come by now: Ireland's arrived (as 16
	// did in 2018), Spain's transferred, Germany's decided but not moved, France's
	// awaiting confirmation; the candidates meant for Portugal's places are cleared
	// and not yet allocated.
	switch m {
	case "IE", "ES":
		d.step(head.ID, cases.RelocationInfo, day(10), "")
		d.step(head.ID, cases.RelocationConfirmation, day(15), "")
		d.step(head.ID, cases.TransferDecision, day(18), "")
		d.step(head.ID, cases.Transferred, day(32), "")
		if m == "IE" {
			d.step(head.ID, cases.ArrivalNotified, day(33), "")
		}
	case "DE":
		d.step(head.ID, cases.RelocationInfo, day(10), "")
		d.step(head.ID, cases.RelocationConfirmation, day(16), "")
		d.step(head.ID, cases.TransferDecision, day(20), "")
	case "FR":
		d.step(head.ID, cases.RelocationInfo, day(11), "")
	}
}

// destination picks the state of relocation for a family: its first stated
// preference among the pledging states with room, else the state with the most room;
// "" when none has room or the family cannot be relocated (an unaccompanied minor
// stays where the best interests assessment is made).
func (d *demo) destination(head *solidarity.CaseRecord, room map[solidarity.MemberState]int64, n int64) solidarity.MemberState {
	p, err := d.svc.Person(d.ctx, head.ID, "relocation")
	if err != nil {
		d.err = err
		return ""
	}
	if p.UnaccompaniedMinor {
		return ""
	}
	for _, m := range p.Preferences {
		if room[m] >= n {
			return m
		}
	}
	var best solidarity.MemberState
	states := make([]solidarity.MemberState, 0, len(room))
	for m := range room {
		states = append(states, m)
	}
	slices.Sort(states)
	for _, m := range states {
		if room[m] >= n && (best == "" || room[m] > room[best]) {
			best = m
		}
	}
	return best
}
