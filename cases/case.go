package cases

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"solidarity"
)

// Track is the asylum procedure track a case is on (Arts. 43–45, 53 APR).
type Track string

const (
	NoTrack Track = ""        // not chosen yet
	Border  Track = "border"  // the asylum border procedure, beside the determination or as the examination
	Regular Track = "regular" // no border procedure (admissibility, accelerated or normal examination)
)

// Facts are what the officer knows about the person that selects a time limit, set by
// the caller; Apply does not change them.
type Facts struct {
	// UnaccompaniedMinor: the take charge request may be made until the first decision
	// on the substance where that is in the child's best interests (Art. 39(1), 4th
	// subpara. AMMR), so no take charge time limit runs.
	UnaccompaniedMinor bool `json:"unaccompanied_minor,omitempty"`
	// NoBiometrics: the person is under 6 (no biometrics: Art. 24(1) ED), so the
	// Eurodac 72-hour time limits do not run.
	NoBiometrics bool `json:"no_biometrics,omitempty"`
	// ReducedScreening: a person under Art. 5(1)(a) SR covered by Art. 23(1), (4) ED who
	// stays at the external border beyond 72 hours: screening within 4 days of the end
	// of the 72 hours (Art. 8(3), 2nd sentence SR).
	ReducedScreening bool `json:"reduced_screening,omitempty"`
	// InadmissibleGround38e: the admissibility examination concerns Art. 38(1)(e) APR:
	// 10 working days (Art. 35(1) APR).
	InadmissibleGround38e bool `json:"inadmissible_ground_38e,omitempty"`
}

// Transition is one applied rule: the legal event, when it happened, and where it led.
// A case's history of transitions is what the ledger records.
type Transition struct {
	From        State     `json:"from"`
	Event       Event     `json:"event"`
	To          State     `json:"to"`
	At          time.Time `json:"at"`
	Article     string    `json:"article"`
	Description string    `json:"description"`
}

// Case is one person's application on its way through the flow. The zero Case is a
// new case (state New). Apply is the only way to change State, History and the dates;
// callers set ID and Facts.
type Case struct {
	ID      string       `json:"id"` // pseudonymous case ID
	State   State        `json:"state"`
	Track   Track        `json:"track,omitempty"`
	Facts   Facts        `json:"facts"`
	History []Transition `json:"history"`

	// Dates that start the clocks, kept by Apply (zero when the event has not happened).
	Arrived         time.Time `json:"arrived,omitzero"`          // disembarkation, apprehension or presentation
	ApplicationMade time.Time `json:"application_made,omitzero"` // the application was made
	Registered      time.Time `json:"registered,omitzero"`       // registration: chooses AMMR or Dublin III (Art. 84 AMMR)
	Lodged          time.Time `json:"lodged,omitzero"`           // lodging (Art. 28 APR): examination time limits
	Detained        time.Time `json:"detained,omitzero"`         // last detention recorded; zero after release
	Absconded       time.Time `json:"absconded,omitzero"`        // last recorded absconding
	Decided         time.Time `json:"decided,omitzero"`          // last decision granting or rejecting
	Final           time.Time `json:"final,omitzero"`            // rejection or withdrawal final (return decision, withdrawal)
}

// Last returns the date of the latest transition, or the zero time for a new case.
func (c Case) Last() time.Time {
	if len(c.History) == 0 {
		return time.Time{}
	}
	return c.History[len(c.History)-1].At
}

// Apply records ev at time at and returns the new case and the transition applied.
// It refuses, leaving c unchanged:
//   - an event the table does not allow in c's state: ECONFLICT, with the event's
//     article and a message naming the state, the event and the events allowed;
//   - an unknown event or state: EINVALID;
//   - a zero time, or a time before the previous event's: EINVALID on field "at".
//
// c is not modified: the returned case has its own history.
func Apply(c Case, ev Event, at time.Time) (Case, Transition, error) {
	state := c.State
	if state == "" {
		state = New
	}
	if !ev.Valid() {
		return c, Transition{}, &solidarity.Error{Code: solidarity.EINVALID, Field: "event",
			Message: fmt.Sprintf("unknown event %q", ev)}
	}
	if !state.Valid() {
		return c, Transition{}, &solidarity.Error{Code: solidarity.EINVALID, Field: "state",
			Message: fmt.Sprintf("unknown state %q", state)}
	}
	r, ok := Lookup(state, ev)
	if !ok {
		return c, Transition{}, refusal(state, ev)
	}
	if at.IsZero() {
		return c, Transition{}, &solidarity.Error{Code: solidarity.EINVALID, Field: "at",
			Message: fmt.Sprintf("event %s has no date", ev)}
	}
	if last := c.Last(); at.Before(last) {
		return c, Transition{}, &solidarity.Error{Code: solidarity.EINVALID, Field: "at",
			Message: fmt.Sprintf("event %s dated %s is before the previous event (%s, %s)",
				ev, at.Format(time.RFC3339), c.History[len(c.History)-1].Event, last.Format(time.RFC3339))}
	}
	t := Transition{From: r.From, Event: ev, To: r.To, At: at, Article: r.Article, Description: r.Description}
	c.State = r.To
	// Clip so that appending never writes into an array another Case shares.
	c.History = append(slices.Clip(c.History), t)
	c.note(ev, at)
	return c, t, nil
}

// note keeps the clock dates and the track.
func (c *Case) note(ev Event, at time.Time) {
	switch ev {
	case Disembarked, ApprehendedAtBorder, PresentedAtBCP, ApprehendedInTerritory:
		c.Arrived = at
	case Applied:
		c.ApplicationMade = at
	case Registration:
		c.Registered = at
	case Lodged:
		if c.Lodged.IsZero() {
			c.Lodged = at
		}
	case Detained:
		c.Detained = at
	case Released:
		c.Detained = time.Time{}
	case Absconded:
		c.Absconded = at
	case Granted, Rejection:
		c.Decided = at
	case ReturnDecision, Withdrawal:
		c.Final = at
	}
	switch ev {
	case BorderTrack, ExamineBorder:
		c.Track = Border
	case RegularTrack, ExamineAdmissibility, ExamineAccelerated, ExamineNormal,
		BorderStopped, BorderStoppedAccel, BorderPeriodExpired:
		c.Track = Regular
	}
}

func refusal(s State, ev Event) error {
	var msg string
	if s.Terminal() {
		msg = fmt.Sprintf("event %s is not allowed in state %s: the case is closed (%s)", ev, s, s.Label())
	} else {
		evs := allowed[s]
		names := make([]string, len(evs))
		for i, e := range evs {
			names[i] = string(e)
		}
		msg = fmt.Sprintf("event %s is not allowed in state %s; allowed: %s", ev, s, strings.Join(names, ", "))
	}
	return &solidarity.Error{Code: solidarity.ECONFLICT, Field: "event", Article: ev.Article(), Message: msg}
}

// Replay rebuilds a case from its recorded history: it applies each transition's event
// at its date to a new case with the given ID and facts, and checks that each lands
// where the record says. A history that Apply produced replays to the same case; any
// other is refused with the index of the first bad transition in Field.
func Replay(id string, facts Facts, history []Transition) (Case, error) {
	c := Case{ID: id, Facts: facts, State: New}
	for i, h := range history {
		next, t, err := Apply(c, h.Event, h.At)
		if err != nil {
			if e, ok := errors.AsType[*solidarity.Error](err); ok {
				e.Field = fmt.Sprintf("history[%d]", i)
			}
			return c, err
		}
		if t.From != h.From || t.To != h.To {
			return c, &solidarity.Error{Code: solidarity.EINVALID, Field: fmt.Sprintf("history[%d]", i),
				Article: t.Article,
				Message: fmt.Sprintf("recorded %s --%s--> %s, but the table leads %s --%s--> %s",
					h.From, h.Event, h.To, t.From, t.Event, t.To)}
		}
		c = next
	}
	return c, nil
}
