package deadline

import (
	"slices"
	"time"

	"solidarity"
	"solidarity/cases"
)

// Due is a running time limit of one case.
type Due struct {
	Limit string `json:"limit"` // Limit.Name
	Row   string `json:"row"`
	Title string `json:"title"`
	// Start is when the event that started the clock happened.
	Start  time.Time `json:"start"`
	Period Period    `json:"period"`
	// Due is the last day on which the act is in time, as a civil date (midnight UTC),
	// or, when Hours is set, the instant the period ends.
	Due            time.Time            `json:"due"`
	Hours          bool                 `json:"hours,omitempty"`
	Article        string               `json:"article"`
	Tag            solidarity.Certainty `json:"tag"`
	Consequence    string               `json:"consequence,omitempty"`
	ConsequenceTag solidarity.Certainty `json:"consequence_tag,omitempty"`
	Then           cases.Event          `json:"then,omitempty"`
	// Discretion, when set, says why the consequence is not applied automatically but
	// left to an officer (Limit.Discretion): Then is empty and Consequence says so.
	Discretion string `json:"discretion,omitempty"`
}

// Overdue reports whether the period of d has ended at now. A period in days ends with
// its last day, read in now's location: on the day itself the act is in time.
func (d Due) Overdue(now time.Time) bool {
	if d.Hours {
		return now.After(d.Due)
	}
	return Civil(now).After(d.Due)
}

// Within reports whether d is not overdue at now but will be due within the given
// time: its end falls no later than now+within.
func (d Due) Within(now time.Time, within time.Duration) bool {
	if d.Hours {
		return !now.After(d.Due) && !d.Due.After(now.Add(within))
	}
	return !Civil(now).After(d.Due) && !d.Due.After(Civil(now.Add(within)))
}

// Compute returns the time limits running for c under p, earliest first: for each
// limit that can run in c's state, the variant that applies, counted from the latest
// event that started it, counted as Regulation 1182/71 counts (see the package doc). A limit
// that has passed is still returned: Overdue finds it. A limit whose consequence the law
// leaves to the Member State in the case at hand (an unaccompanied minor's take charge
// request, Art. 39(1), 4th subpara. AMMR) is returned with its due date, no Then and
// the reason (Due.Discretion).
//
// p's zero fields take the spec's values; p is not validated here (Validate it once
// where it is read).
func Compute(c cases.Case, p Params) []Due {
	var buf [8]Due // a case has a handful: one allocation, of the right size
	dues := AppendCompute(buf[:0], c, p)
	if len(dues) == 0 {
		return nil
	}
	return slices.Clone(dues)
}

// AppendCompute appends the time limits running for c to dst, earliest first, and
// returns the extended slice, as Compute does. With a reused dst and prepared Params
// (Params.Prepare) it does not allocate: the form for a view over many cases.
func AppendCompute(dst []Due, c cases.Case, p Params) []Due {
	if !p.ready {
		p = p.Prepare()
	}
	k := calendar{holidays: p.holidays, rollOver: p.RollOver}
	state := c.State
	if state == "" {
		state = cases.New
	}
	cands := byState[state]
	if len(cands) == 0 {
		return dst
	}
	var x facts
	x.init(&c, &p, state)
	first := len(dst)
	var done uint64 // groups already decided
	for _, i := range cands {
		l := &catalogue[i]
		if l.group > 0 && done&(1<<l.group) != 0 {
			continue
		}
		if l.when.all&^x.flags&^fHitBefore != 0 {
			continue // a flag that does not depend on the start fails: skip the search
		}
		start := x.findStart(l.Start)
		if start < 0 && l.Fallback != nil {
			start = x.findStart(l.Fallback)
		}
		if start < 0 || x.stopped(l.stopIDs, start) {
			continue
		}
		if !l.when.none() {
			x.at(start)
			if !l.when.holds(&x) {
				continue
			}
		}
		if l.group > 0 {
			done |= 1 << l.group
		}
		per := l.Period
		if l.param != noParam {
			per = p.period(l.param)
		}
		if per.N <= 0 {
			continue
		}
		from := c.History[start].At
		if !l.Offset.IsZero() {
			from, _ = k.end(from, l.Offset)
		}
		due, hours := k.end(from, per)
		dst = append(dst, Due{Limit: l.Name, Row: l.Row, Title: l.Title, Start: c.History[start].At, Period: per,
			Due: due, Hours: hours, Article: l.Article, Tag: l.Tag, Consequence: l.Consequence,
			ConsequenceTag: l.ConsequenceTag, Then: l.Then})
		if l.Discretion != "" && l.discretionWhen.holds(&x) {
			d := &dst[len(dst)-1]
			d.Then, d.Discretion = "", l.Discretion
			d.Consequence = l.discretionConsequence
		}
	}
	// Earliest first (insertion sort: a case has a handful of dues).
	out := dst[first:]
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].end().Before(out[j-1].end()); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return dst
}

// end is the instant d's period ends, for ordering: the end of the last day in UTC.
func (d *Due) end() time.Time {
	if d.Hours {
		return d.Due
	}
	return d.Due.Add(24 * time.Hour)
}

// Overdue returns the dues whose period has ended at now.
func Overdue(dues []Due, now time.Time) []Due {
	var out []Due
	for _, d := range dues {
		if d.Overdue(now) {
			out = append(out, d)
		}
	}
	return out
}

// DueSoon returns the dues not yet overdue at now that end within the given time.
func DueSoon(dues []Due, now time.Time, within time.Duration) []Due {
	var out []Due
	for _, d := range dues {
		if d.Within(now, within) {
			out = append(out, d)
		}
	}
	return out
}

// Consequence is the legal consequence of a missed time limit, to be recorded on the
// case by applying Event.
type Consequence struct {
	Due Due `json:"due"`
	// Event is the event that records the consequence. It is "" when the event is not
	// legal in the case's current state (the border procedure's end after a rejection,
	// the screening limit before screening started), or when the law leaves the
	// consequence to the Member State (Due.Discretion): an officer must decide.
	Event cases.Event `json:"event,omitempty"`
}

// Missed returns, for each limit of c that is overdue at now and whose consequence
// the law states as a change of the case (Due.Then) or leaves to the Member State
// (Due.Discretion: returned without an Event, an officer decides), what to apply: responsibility
// shifting to the determining Member State after a missed take charge limit (Art.
// 39(1) AMMR) or transfer limit (Art. 37(1) AMMR), tacit acceptance or confirmation
// (Arts. 40, 41(4), 45(2) AMMR), the end of the border procedure (Art. 51(2) APR), of
// the return border procedure (Art. 4(2) RBPR), of responsibility (Art. 37(2) AMMR),
// a referral to return after screening (Art. 18(1) SR), finality after the appeal
// window. Missed does not change c: the caller applies the events with cases.Apply,
// dated when it records them.
func Missed(c cases.Case, p Params, now time.Time) []Consequence {
	var out []Consequence
	for _, d := range Compute(c, p) {
		if (d.Then == "" && d.Discretion == "") || !d.Overdue(now) {
			continue
		}
		k := Consequence{Due: d}
		if d.Then != "" && cases.Can(c.State, d.Then) {
			k.Event = d.Then
		}
		out = append(out, k)
	}
	return out
}
