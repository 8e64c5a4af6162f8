package cases_test

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"pgregory.net/rapid"

	"solidarity"
	"solidarity/cases"
)

// TestPropertyApplyIsTheTable generates random sequences of events, mostly legal ones so
// that the walks go deep, some drawn from every event (and an unknown one), some dated
// before the previous event, from a new case or from a case put in a random state.
// Apply must accept exactly the (state, event) pairs of the table dated no earlier than
// the last event, and refuse every other leaving the case unchanged; the accepted
// history must chain state to state and have monotonic dates, and a history from a new
// case must replay to the same case.
func TestPropertyApplyIsTheTable(t *testing.T) {
	all := append(cases.Events(), "not-an-event")
	rapid.Check(t, func(t *rapid.T) {
		c := cases.Case{ID: "prop", Facts: cases.Facts{UnaccompaniedMinor: rapid.Bool().Draw(t, "uam")}}
		fromNew := rapid.Bool().Draw(t, "from new")
		if !fromNew {
			c = caseIn(rapid.SampledFrom(cases.States()).Draw(t, "state"))
		}
		at := t0
		steps := rapid.IntRange(0, 80).Draw(t, "steps")
		for i := range steps {
			var ev cases.Event
			if legal := cases.Allowed(c.State); len(legal) > 0 && rapid.IntRange(0, 3).Draw(t, "pick") > 0 {
				ev = rapid.SampledFrom(legal).Draw(t, "legal")
			} else {
				ev = rapid.SampledFrom(all).Draw(t, "any")
			}
			when := at.Add(time.Duration(rapid.IntRange(-3, 30*24).Draw(t, "hours")) * time.Hour)
			state := c.State
			if state == "" {
				state = cases.New
			}
			rule, inTable := cases.Lookup(state, ev)
			early := len(c.History) > 0 && when.Before(c.Last())

			next, tr, err := cases.Apply(c, ev, when)
			switch {
			case !ev.Valid():
				if solidarity.ErrorCode(err) != solidarity.EINVALID {
					t.Fatalf("step %d: unknown event %q: %v", i, ev, err)
				}
			case !inTable:
				e, ok := errors.AsType[*solidarity.Error](err)
				if !ok || e.Code != solidarity.ECONFLICT || e.Article == "" {
					t.Fatalf("step %d: %s in %s not in the table, got %v", i, ev, state, err)
				}
			case early:
				if solidarity.ErrorCode(err) != solidarity.EINVALID {
					t.Fatalf("step %d: %s dated before the previous event accepted: %v", i, ev, err)
				}
			default:
				if err != nil {
					t.Fatalf("step %d: %s in %s is in the table but refused: %v", i, ev, state, err)
				}
				want := cases.Transition{From: state, Event: ev, To: rule.To, At: when, Article: rule.Article, Description: rule.Description}
				if tr != want || next.State != rule.To || len(next.History) != len(c.History)+1 || next.History[len(c.History)] != want {
					t.Fatalf("step %d: applied %+v, case in %s", i, tr, next.State)
				}
				c, at = next, when
				continue
			}
			if !reflect.DeepEqual(next, c) {
				t.Fatalf("step %d: refused %s changed the case", i, ev)
			}
		}

		prev := cases.New
		for i, h := range c.History {
			if i == 0 && !fromNew {
				prev = h.To
				continue
			}
			if h.From != prev || !cases.Can(h.From, h.Event) {
				t.Fatalf("history[%d] %s --%s--> does not chain from %s", i, h.From, h.Event, prev)
			}
			if i > 0 && h.At.Before(c.History[i-1].At) {
				t.Fatalf("history[%d] dated before history[%d]", i, i-1)
			}
			prev = h.To
		}
		if len(c.History) == 0 {
			return
		}
		if prev != c.State {
			t.Fatalf("history ends in %s, case in %s", prev, c.State)
		}
		if !fromNew {
			return
		}
		got, err := cases.Replay(c.ID, c.Facts, c.History)
		if err != nil || !reflect.DeepEqual(got, c) {
			t.Fatalf("replay: %v\n got %+v\nwant %+v", err, got, c)
		}
	})
}
